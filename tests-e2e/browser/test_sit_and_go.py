"""A newcomer plays a heads-up sit'n'go in the browser against a house bot, to the end, and sees the result.

The operator creates the sit'n'go from the director's heads-up template; the player signs up, registers from
the lobby (paying the buy-in from the demo's welcome credit); a house bot takes the other seat, the tournament
starts, the client opens the table by itself, and the player acts on every turn until one of them has all the
chips. Then the replayer of each hand played shows "deal verified" (P-1.3, docs/fair-deal.md): the browser
recomputes the deck from the revealed seed and contributions, the client's own random values among them, and
checks it against the commitment it saw published before each hand. Skipped while the tournament director does
not serve its REST API."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from browser_support import DESKTOP, Api, sign_up_in_browser

pytestmark = pytest.mark.e2e

PLAY_SECONDS = 600


def heads_up_template(api: Api) -> str:
    templates = api.call("GET", "/tournament-templates")
    names = [str(t.get("template") or t.get("name")) if isinstance(t, dict) else str(t) for t in templates]
    heads_up = [name for name in names if "heads" in name]
    assert heads_up, f"no heads-up template among {names}"
    return str(heads_up[0])


def wait_for_welcome_credit(page: Any, base_url: str) -> None:
    """The demo's welcome credit is paid in just after sign-up: the account page shows it once it is there."""
    page.goto(f"{base_url}/#/account")
    for _ in range(60):
        page.wait_for_selector(".balances > *")
        if page.locator(".balance[data-currency='EUR']").count():
            return
        page.wait_for_timeout(500)
        page.reload()
    pytest.fail("the welcome credit never arrived")


def play_to_the_end(page: Any, deadline: float) -> None:
    """Act on each turn: all-in when a raise is offered (so the match ends soon), else call, else check."""
    while time.monotonic() < deadline:
        if page.locator(".result-box:not([hidden])").count():
            return
        raise_button = page.locator("button[data-action='raise']")
        if raise_button.count():
            page.locator(".sizing .quick .chip").last.click()  # all-in
            raise_button.click()
        elif page.locator("button[data-action='call']").count():
            page.click("button[data-action='call']")
        elif page.locator("button[data-action='check']").count():
            page.click("button[data-action='check']")
        else:
            page.wait_for_timeout(200)
    pytest.fail("the sit'n'go did not end in time")


def verify_every_hand(page: Any, hands_url: str) -> None:
    """Open each hand's replayer from the table's hand history: the deal verifies against the commitment this
    browser saw published when the hand was dealt (kept for the session)."""
    page.goto(hands_url)
    page.locator("a[data-replay]").first.wait_for()
    hand_ids = [link.get_attribute("data-replay") for link in page.locator("a[data-replay]").all()]
    for hand_id in hand_ids:
        page.goto(f"{hands_url}/{hand_id}")
        check = page.wait_for_selector(f".deal-check[data-hand='{hand_id}']")
        text = check.inner_text()
        assert check.get_attribute("data-status") == "verified", text
        assert check.get_attribute("data-against") == "seen", text
        assert "Deal verified" in text and "Mano verificata" in text


@pytest.mark.timeout(PLAY_SECONDS + 180)
def test_a_newcomer_plays_a_heads_up_sit_and_go_against_a_bot_to_the_end(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    api.call("GET", "/tournaments")  # skips while the director has no REST API
    name = f"E2E heads-up {uuid.uuid4().hex[:6]}"
    created = api.call(
        "POST",
        "/tournaments",
        json={"template": heads_up_template(api), "name": name, "buy_in": {"prize_part_cents": 400, "fee_cents": 100}},
    )
    tournament_id = created["tournament_id"]
    page = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(page, platform_url, f"Newcomer{uuid.uuid4().hex[:6]}")
        wait_for_welcome_credit(page, platform_url)
        page.goto(f"{platform_url}/#/lobby")
        card = page.locator(f"article[data-tournament='{tournament_id}']")
        card.wait_for()
        screenshot(page, "lobby")
        card.locator("button[data-tournament]").click()
        # A house bot takes the other seat, the tournament starts and the client opens the table by itself.
        page.wait_for_url("**/#/table/*", timeout=90000)
        table_path = page.url.split("#", 1)[1]
        page.wait_for_selector(".my-cards .card", timeout=60000)
        screenshot(page, "table")
        play_to_the_end(page, time.monotonic() + PLAY_SECONDS)
        result = page.locator(".result-box").inner_text()
        assert "You" in result and ("won" in result or "finished #2" in result)
        screenshot(page, "result")
        # Issue 15 (11): the result leads to the player's hands in the tournament, from the table engine, newest
        # first; the last one, replayed from the player's own copy, ends with their cards and who won what.
        me = page.evaluate("JSON.parse(localStorage.getItem('principal')).id")
        page.click(".result-box a.replay-hands")
        last_hand = page.locator(".tournament-hands article[data-hand-id]").first
        last_hand.wait_for()
        page.locator("h1", has_text=name).wait_for()  # the tournament's name, once looked up
        last_hand.locator("a[data-replay]").click()
        page.wait_for_selector(".replay-step")
        page.click("[data-step='last']")
        steps = page.locator(".step-no").inner_text()
        assert steps.startswith("Step ") and steps.split(" of ")[0].split()[-1] == steps.split(" of ")[1].split()[0]
        assert len(page.locator(f".replay tr[data-player='{me}'] .card").all()) == 2  # own cards: always in own copy
        assert page.locator(".replay .winner-line").count() >= 1
        screenshot(page, "replay")
        # And from the tournament's results: the same hands, the player's own among them.
        page.goto(f"{platform_url}/#/tournament/{tournament_id}")
        page.locator(".hand-links a[data-hands='mine']").wait_for()
        page.locator("table.standings a[data-hands='mine']").wait_for()
        # Issue 15 (7): the statement shows the buy-in once, by the tournament's name, with its two parts.
        page.goto(f"{platform_url}/#/account")
        buy_in = page.locator("tr[data-kind='buy_in']")
        buy_in.first.wait_for()
        assert buy_in.count() == 1
        line = buy_in.inner_text()
        assert name in line and tournament_id not in line
        assert "€4.00 prize pool + €1.00 fee" in line and "−€5.00" in line
        screenshot(page, "statement")
        verify_every_hand(page, f"{platform_url}/#{table_path}/hands")
    finally:
        page.close()
