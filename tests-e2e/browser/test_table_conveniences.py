"""Issue 15, item 12: the betting conveniences players of the big clients expect, in the browser against a gateway
alone (the table engine faked, as in test_table_client): pre-flop 2×/2.5×/3× sizes, the pre-action boxes
"Check/Fold" and "Call any" carried out when the turn comes, keyboard shortcuts, and a visible time-bank bar."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE
from platform_kit.events.table import ActionRequested, PlayerAct
from test_table_client import TABLE, Gateway, deal_and_ask_alice, gateway, page, seated_at_the_table, wait_for

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows


def ask(gateway: Gateway, player: str, seat: int, *, deadline: str = "2099-01-01T00:00:00Z", **offered: Any) -> None:
    asked = {"can_check": False, "call_amount": 10, "min_raise_to": 40, "max_raise_to": 1500} | offered
    gateway.publish(
        ActionRequested(
            table_id=TABLE, hand_id="h-1", seat=seat, player_id=player, deadline=deadline, time_bank_seconds=30, **asked
        )
    )


def acts(gateway: Gateway) -> list[tuple[str, int | None]]:
    return [(c["action"], c.get("amount")) for c in gateway.commands(PlayerAct.TYPE)]


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_12_preflop_sizes_are_multiples_of_the_big_blind_and_all_in_comes_last(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)  # blinds 10/20, Alice to act with 10 to call
    page.wait_for_selector("button[data-action='raise']")
    chips = page.locator(".sizing .quick .chip")
    assert chips.all_inner_texts() == ["Min", "2×", "2.5×", "3×", "All-in"]
    assert [c.get_attribute("data-to") for c in chips.all()] == ["40", "40", "50", "60", "1500"]
    page.locator(".sizing .quick .chip", has_text="2.5×").click()
    assert page.locator(".sizing input[type=number]").input_value() == "50"
    screenshot(page, "presets")
    page.locator(".sizing .quick .chip", has_text="3×").click()
    page.click("button[data-action='raise']")
    assert wait_for(lambda: acts(gateway)) == [("raise", 60)]


def test_issue15_12_keyboard_shortcuts_fold_call_and_raise(gateway: Gateway, page: Any, screenshot: Any) -> None:
    page.set_viewport_size(DESKTOP)
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='raise']")
    assert page.locator("button[data-action='fold'] kbd").inner_text() == "F"
    page.locator(".chat-form input").focus()
    page.keyboard.press("f")  # typing in the chat is not an action
    assert page.locator(".chat-form input").input_value() == "f" and acts(gateway) == []
    page.locator(".felt").click()
    page.keyboard.press("c")
    assert wait_for(lambda: acts(gateway)) == [("call", None)]
    ask(gateway, alice, 1)
    page.wait_for_selector("button[data-action='raise']")
    page.keyboard.press("a")  # the size to all-in
    assert page.locator(".sizing input[type=number]").input_value() == "1500"
    page.keyboard.press("r")
    assert wait_for(lambda: len(acts(gateway)) == 2) and acts(gateway)[1] == ("raise", 1500)


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_12_pre_action_boxes_act_as_soon_as_the_turn_comes(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='call']")
    page.click("button[data-action='call']")
    wait_for(lambda: acts(gateway) == [("call", None)])
    ask(gateway, bob, 2, can_check=True, call_amount=0)  # Bob's turn: Alice sees the boxes
    box = page.locator("input[data-pre='call_any']")
    box.wait_for()
    assert "Call any" in page.locator(".pre-actions").inner_text()
    assert "Vedi sempre" in page.locator(".pre-actions").inner_text()
    box.check()
    screenshot(page, "pre-action")
    ask(gateway, alice, 1, call_amount=200)  # Bob bet: the ticked box calls at once
    assert wait_for(lambda: len(acts(gateway)) == 2) and acts(gateway)[1] == ("call", None)
    assert page.locator("button[data-action='call']").count() == 0

    ask(gateway, bob, 2, can_check=True, call_amount=0)
    page.locator("input[data-pre='check_fold']").check()
    ask(gateway, alice, 1, can_check=True, call_amount=0)  # a free check: Check/Fold checks
    assert wait_for(lambda: len(acts(gateway)) == 3) and acts(gateway)[2] == ("check", None)


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_12_the_time_bank_shows_as_a_bar_that_drains_after_the_deadline(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    bank = page.locator(".bank-bar")
    bank.wait_for()
    assert bank.get_attribute("data-seconds") == "30" and "30 s" in bank.inner_text()
    assert not bank.evaluate("node => node.classList.contains('running')")
    deadline = datetime.now(UTC) - timedelta(seconds=5)
    ask(
        gateway, alice, 1, deadline=deadline.isoformat().replace("+00:00", "Z")
    )  # the turn's time is over: the bank runs
    page.wait_for_selector(".bank-bar.running")
    seconds = int(bank.get_attribute("data-seconds") or 0)
    # What is left of the 30 s past the deadline, however long a loaded machine took to get here.
    assert 30 - (datetime.now(UTC) - deadline).total_seconds() <= seconds <= 25
    # The width set, not the one drawn: the bar eases to it over a quarter of a second.
    width = float(bank.locator(".fill").evaluate("node => parseFloat(node.style.width)"))
    assert 0 < width < 100
    box = bank.bounding_box()
    viewport = page.viewport_size
    assert box is not None and box["y"] + box["height"] <= viewport["height"]  # on screen with the actions
    screenshot(page, "time-bank")


def test_the_turn_timer_runs_over_the_tables_own_action_time(gateway: Gateway, page: Any) -> None:
    """Review of issue 15's client: the timer bar's full width was 20 s whatever the table's action time, so a
    30 s turn showed a full bar for its first 10 s. It now runs from the request to its deadline."""
    page.set_viewport_size(DESKTOP)
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='raise']")
    asked_at = datetime.now(UTC)
    ask(gateway, alice, 1, deadline=(asked_at + timedelta(seconds=30)).isoformat().replace("+00:00", "Z"))
    # The new request is on screen once the turn counts down from at most 30 s (the first one's ran to 2099).
    page.wait_for_function(
        "() => Number(/Your turn: (\\d+) s/.exec(document.querySelector('.timer .label').textContent)?.[1]) <= 30"
    )
    width = float(page.locator(".timer .fill").evaluate("node => parseFloat(node.style.width)"))
    left = 30 - (datetime.now(UTC) - asked_at).total_seconds()
    assert left / 30 * 100 - 2 <= width < 100  # what is left of 30 s, not a full bar for 10 s
