"""Issue 15, item 14: several tables at once (a tournament's and a sit'n'go's). The player switches between them
from the tabs above the table; each keeps playing out of sight — its own cards, board and pending turn — and
comes back as it was left, without being loaded again; the tab of a table waiting for the player says so.
Against a gateway alone with the table engine faked, as in test_table_client."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import DESKTOP, PHONE
from platform_kit.events.table import HandStarted, HoleCardsDealt, Level, PlayerAct, SeatedPlayer, StreetDealt
from test_table_client import (
    OTHER_TABLE,
    TABLE,
    Gateway,
    cards_in,
    deal_and_ask_alice,
    gateway,
    page,
    seated_at_the_table,
    wait_for,
)

pytestmark = pytest.mark.e2e
__all__ = ["gateway", "page"]  # the fixtures this module borrows


def deal_on_the_other_table(gateway: Gateway, alice: str, bob: str) -> None:
    """Hand h-2 on the other table: Alice holds 9h 9d, the flop is out, Bob is to act (not Alice)."""
    seated = [SeatedPlayer(seat=1, player_id=alice, stack=1500), SeatedPlayer(seat=2, player_id=bob, stack=1500)]
    gateway.publish(
        HandStarted(
            table_id=OTHER_TABLE,
            tournament_id=None,
            hand_id="h-2",
            hand_no=4,
            button_seat=2,
            level=Level(small_blind=50, big_blind=100),
            seats=seated,
        )
    )
    gateway.publish(HoleCardsDealt(table_id=OTHER_TABLE, hand_id="h-2", player_id=alice, seat=1, cards=["9h", "9d"]))
    gateway.publish(StreetDealt(table_id=OTHER_TABLE, hand_id="h-2", street="flop", board=["9c", "4s", "Jd"]))


def table_loads(gateway: Gateway, table_id: str) -> int:
    return gateway.requested.count(f"/v1/tables/{table_id}")


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_issue15_14_two_tables_at_once_switch_without_losing_either(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='raise']")

    page.goto(f"{gateway.url}/#/table/{OTHER_TABLE}")
    page.wait_for_selector(f".table-tab[data-table='{OTHER_TABLE}'].current")
    deal_on_the_other_table(gateway, alice, bob)
    page.wait_for_selector(".board .card >> nth=2")
    assert cards_in(page, ".my-cards .card") == ["9h", "9d"]
    waiting = page.locator(f".table-tab[data-table='{TABLE}']")
    assert "your turn" in waiting.inner_text() and "tocca a te" in waiting.inner_text()
    assert page.locator("button[data-action='raise']").count() == 0  # not her turn on this table
    screenshot(page, "other-table")

    waiting.locator("a").click()
    page.wait_for_selector("button[data-action='raise']")
    assert cards_in(page, ".my-cards .card") == ["As", "Kd"]
    assert table_loads(gateway, TABLE) == 1  # the same table, kept alive: not loaded again
    page.click("button[data-action='call']")
    sent = wait_for(lambda: gateway.commands(PlayerAct.TYPE))
    assert sent[0]["table_id"] == TABLE and sent[0]["action"] == "call"

    page.locator(f".table-tab[data-table='{OTHER_TABLE}'] a").click()
    page.wait_for_selector(".board .card >> nth=2")
    assert cards_in(page, ".my-cards .card") == ["9h", "9d"] and cards_in(page, ".board .card") == ["9c", "4s", "Jd"]
    assert table_loads(gateway, OTHER_TABLE) == 1
    screenshot(page, "back-and-forth")

    page.locator(f".table-tab[data-table='{OTHER_TABLE}'] .close-tab").click()  # closing the one on screen
    page.wait_for_url("**/#/lobby")
