"""Issue 15, item 13: a newcomer's first visit is never an empty lobby. The standalone platform opens its default
schedule by itself — two recurring sit'n'gos and the next hourly tournament — and a sit'n'go that fills is
replaced at once by an identical one, so the player always sees a seat to take. Issue 17: it also keeps the
week's draw open, and a newcomer bets on it from the lobby."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from browser_support import DESKTOP, PHONE, Api, sign_up_in_browser
from test_sit_and_go import heads_up_template, wait_for_welcome_credit

pytestmark = pytest.mark.e2e

SEEDED = ("Heads-up Sit & Go", "6-Max Sit & Go", "Hourly Hold'em")


def open_cards(page: Any, name: str) -> Any:
    """The lobby's cards of registering tournaments called `name`."""
    title = page.locator("h3 a", has_text=re.compile(f"^{re.escape(name)}$"))
    return page.locator("article[data-tournament]", has=title)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_issue15_13_the_first_lobby_offers_the_default_schedule(
    platform_url: str, browser: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    page = browser.new_page(viewport=viewport)
    try:
        sign_up_in_browser(page, platform_url, f"First{uuid.uuid4().hex[:6]}")
        for name in SEEDED:
            open_cards(page, name).first.wait_for(timeout=30000)
        heads_up = open_cards(page, "Heads-up Sit & Go").first.inner_text()
        assert "a new one opens when full" in heads_up and "se ne apre un altro appena è pieno" in heads_up
        hourly = open_cards(page, "Hourly Hold'em").first.inner_text()
        assert "Scheduled" in hourly and "0/180" in hourly
        assert page.locator("text=No tournaments open right now.").count() == 0
        screenshot(page, "lobby")
    finally:
        page.close()


@pytest.mark.timeout(300)
def test_issue15_13_a_recurring_sit_and_go_that_fills_is_replaced_in_the_lobby(
    platform_url: str, browser: Any, screenshot: Any
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(page, platform_url, f"Filler{uuid.uuid4().hex[:6]}")
        wait_for_welcome_credit(page, platform_url)
        page.goto(f"{platform_url}/#/lobby")
        card = open_cards(page, "Heads-up Sit & Go").first
        card.wait_for(timeout=30000)
        first_id = card.get_attribute("data-tournament")
        card.locator("button[data-tournament]").click()
        # A house bot takes the other seat: the sit'n'go starts and the client opens its table.
        page.wait_for_url("**/#/table/*", timeout=90000)
        page.goto(f"{platform_url}/#/lobby")
        fresh = open_cards(page, "Heads-up Sit & Go").and_(page.locator(f"article:not([data-tournament='{first_id}'])"))
        fresh.first.wait_for(timeout=30000)
        assert "0/2" in fresh.first.inner_text()
        assert fresh.first.locator("button[data-tournament]").count() == 1
        screenshot(page, "replaced")
    finally:
        page.close()


@pytest.mark.timeout(240)
def test_issue17_the_first_lobby_offers_the_weeks_draw_and_a_newcomer_bets_on_it(
    platform_url: str, browser: Any, screenshot: Any
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(page, platform_url, f"Punter{uuid.uuid4().hex[:6]}")
        wait_for_welcome_credit(page, platform_url)
        page.goto(f"{platform_url}/#/lobby")
        card = page.locator("article.card-row", has=page.locator("h3 a[href^='#/draw/weekly-']")).first
        card.wait_for(timeout=30000)
        assert "Open" in card.inner_text()
        card.locator("a.button").click()
        page.wait_for_selector("fieldset.match[data-match='8']")
        assert page.locator("fieldset.match", has_text="Serie A").count() == 8
        for match in range(1, 9):
            page.click(f"fieldset[data-match='{match}'] button[data-option='1:1']")
        page.click("button.place")
        page.wait_for_selector("tr[data-coupon]")
        assert "€0.10" in page.locator("tr[data-coupon]").first.inner_text()
        screenshot(page, "weekly-draw")
    finally:
        page.close()


@pytest.mark.timeout(300)
def test_issue14_a_registration_refused_for_overload_is_sent_again_under_the_same_key(
    platform_url: str, browser: Any, screenshot: Any
) -> None:
    """In a registration rush the director refuses what it cannot take yet (503 `director_busy`, Retry-After):
    the client waits that long and sends the same request again under the same Idempotency-Key (never charged
    twice), instead of showing the player an error."""
    page = browser.new_page(viewport=DESKTOP)
    keys: list[str | None] = []

    def busy_once(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) > 1:
            route.continue_()
            return
        refusal = {"type": "urn:problem:director_busy", "title": "Busy", "status": 503, "code": "director_busy"}
        route.fulfill(
            status=503, headers={"Retry-After": "1"}, content_type="application/problem+json", body=json.dumps(refusal)
        )

    try:
        sign_up_in_browser(page, platform_url, f"Rush{uuid.uuid4().hex[:6]}")
        wait_for_welcome_credit(page, platform_url)
        page.route("**/api/v1/tournaments/*/registrations", busy_once)
        page.goto(f"{platform_url}/#/lobby")
        card = open_cards(page, "Heads-up Sit & Go").first
        card.wait_for(timeout=30000)
        card.locator("button[data-tournament]").click()
        page.locator("text=The platform is busy").first.wait_for(timeout=30000)
        screenshot(page, "busy")
        # Registered on the second try: a house bot takes the other seat and the client opens the table.
        page.wait_for_url("**/#/table/*", timeout=90000)
        assert len(keys) == 2 and keys[0] is not None and keys[0] == keys[1]
    finally:
        page.close()


@pytest.mark.timeout(240)
def test_issue14_several_tournaments_registration_news_in_one_lobby_message_update_each_card(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """While many tournaments fill at once, the gateway sends their held registration news to each lobby socket as
    ONE `lobby.news` message (gateway `service/lobby_news.py`): the lobby shows every tournament's count from it.
    The message is put on the page's real lobby socket by the test (the gateway sends one only when its timer finds
    several tournaments' news held, which a test cannot time), for two tournaments nobody else registers in."""
    price = {"prize_part_cents": 900, "fee_cents": 100}
    created = [
        api.call("POST", "/tournaments", json={"template": heads_up_template(api), "name": f"E2E news {n} {uuid.uuid4().hex[:6]}", "buy_in": price})
        for n in (1, 2)
    ]  # fmt: skip
    page = browser.new_page(viewport=DESKTOP)
    lobby_sockets: list[Any] = []

    def follow_lobby(socket: Any) -> None:
        socket.connect_to_server()  # everything else passes through both ways
        lobby_sockets.append(socket)

    try:
        page.route_web_socket(re.compile(r".*/ws\?socket=lobby.*"), follow_lobby)
        sign_up_in_browser(page, platform_url, f"News{uuid.uuid4().hex[:6]}")
        page.goto(f"{platform_url}/#/lobby")
        counts = [page.locator(f"[data-registered-of='{t['tournament_id']}']").first for t in created]
        for count in counts:
            count.wait_for(timeout=30000)
            assert count.inner_text() == "0"
        page.wait_for_function("document.getElementById('lobby-status')?.classList.contains('online')", timeout=30000)
        news = [
            {
                "event": "tournament.player.registered",
                "occurred_at": "2030-06-01T12:00:00+00:00",
                "payload": {"tournament_id": t["tournament_id"], "player_id": f"p-{n}", "entry": "buy_in", "registered": n},
            }
            for n, t in enumerate(created, start=1)
        ]  # fmt: skip
        digest = {"event": "lobby.news", "occurred_at": "2030-06-01T12:00:00+00:00", "payload": {"news": news}}
        lobby_sockets[-1].send(json.dumps({"type": "message", "channel": "lobby", "seq": 0, "data": digest}))
        for n, count in enumerate(counts, start=1):
            page.wait_for_function(
                "([node, n]) => node.textContent === String(n)", arg=[count.element_handle(), n], timeout=10000
            )
        screenshot(page, "digest")
    finally:
        page.close()
