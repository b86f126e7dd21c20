"""The table in the browser, against a gateway alone: the table engine is faked and its events are put on the
gateway's bus by the test, so the client's table is checked without a tournament director.

P-1.4: the player sees their own hole cards and nobody else's; the action bar offers what the request offers,
with the bet size kept between `min_raise_to` and `max_raise_to`; the action reaches the bus as the player's;
board, pot and chat follow the stream; losing the table connection shows the client retrying (P-13.1)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from browser_support import DESKTOP, PHONE, free_base_port, sign_up_in_browser
from gateway.app import create_app
from gateway.settings import Settings
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.events.base import Event
from platform_kit.events.table import (
    ActionRequested,
    ActionTaken,
    ChatPosted,
    HandStarted,
    HoleCardsDealt,
    Level,
    PlayerAct,
    SeatedPlayer,
    StreetDealt,
    TableOpened,
)
from platform_kit.events.tournament import PlayerRegistered

pytestmark = pytest.mark.e2e

TABLE = "t-e2e"
SIT_AND_GO = {
    "tournament_id": "snd-1",
    "name": "Heads-up Turbo",
    "kind": "sit_and_go",
    "status": "registering",
    "currency": "EUR",
    "buy_in_prize_cents": 400,
    "buy_in_fee_cents": 100,
    "min_players": 2,
    "max_players": 2,
    "starts_at": None,
    "guarantee_cents": 0,
    "freeroll": False,
}


def table_view(alice: str, bob: str) -> dict[str, Any]:
    seats = [
        {
            "seat": 1,
            "player_id": alice,
            "stack": 1500,
            "bet": 0,
            "in_hand": False,
            "sitting_out": False,
            "connected": True,
        },
        {
            "seat": 2,
            "player_id": bob,
            "stack": 1500,
            "bet": 0,
            "in_hand": False,
            "sitting_out": False,
            "connected": True,
        },
    ]
    return {
        "table_id": TABLE,
        "tournament_id": None,
        "status": "waiting",
        "max_seats": 6,
        "betting_structure": "no_limit",
        "level": None,
        "button_seat": None,
        "hand": None,
        "seats": seats,
    }


class Gateway:
    """A gateway served by uvicorn on its own thread and event loop, with an in-memory bus the test publishes on."""

    def __init__(self, database: Path) -> None:
        self.port = free_base_port(1)
        self.url = f"http://127.0.0.1:{self.port}"
        self.bus = InMemoryBus()
        self.players: dict[str, str] = {}
        settings = Settings.model_validate(
            {
                "database_url": f"sqlite+aiosqlite:///{database}",
                "demo_bots": False,
                "demo_welcome_credit_cents": 0,
                "password_hash_time_cost": 1,
                "password_hash_memory_kib": 64,
                "anonymous_rate_limit_burst": 1000,
            }
        )
        self.registered: list[str] = []
        app = create_app(settings, bus=self.bus, services_transport=httpx.MockTransport(self._services))
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.server.serve(),), daemon=True)

    def _services(self, request: httpx.Request) -> httpx.Response:
        """The table engine's table, and a director with one heads-up sit'n'go that accepts registrations."""
        path = request.url.path
        if path == f"/v1/tables/{TABLE}":
            return httpx.Response(200, json=table_view(self.players["alice"], self.players["bob"]))
        if path == "/v1/tournaments":
            return httpx.Response(200, json=[SIT_AND_GO | {"registered": len(self.registered)}])
        if path.startswith("/internal/v1/players/") and path.endswith("/tournaments"):
            return httpx.Response(
                200, json=[{"tournament_id": "snd-1", "status": "registering"}] if self.registered else []
            )
        if path == "/internal/v1/tournaments/snd-1/registrations":
            self.registered.append(json.loads(request.content)["player_id"])
            return httpx.Response(201, json={"registered": len(self.registered)})
        body = {"type": "urn:problem:not_found", "title": "Not Found", "status": 404, "code": "not_found"}
        return httpx.Response(404, content=json.dumps(body), headers={"content-type": "application/problem+json"})

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the gateway did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    def publish(self, event: Event) -> None:
        envelope = Envelope.wrap(event, producer="table-engine")
        asyncio.run_coroutine_threadsafe(self.bus.publish(envelope, event.routing_key()), self.loop).result(5)

    def commands(self, command_type: str) -> list[dict[str, Any]]:
        return [envelope.payload for _, envelope in self.bus.published if envelope.type == command_type]


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Gateway]:
    started = Gateway(tmp_path / "gateway.db")
    started.start()
    try:
        yield started
    finally:
        started.stop()


def sign_up_bob(gateway: Gateway) -> str:
    answer = httpx.post(
        f"{gateway.url}/api/v1/auth/signup",
        json={
            "concessionaire": "demo",
            "nickname": "Bob",
            "email": "bob@example.com",
            "date_of_birth": "1985-01-01",
            "password": "long enough password",
        },
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["principal"]["id"])


def wait_for(check: Any, timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_p1_4_the_table_shows_own_cards_offers_legal_bets_and_sends_the_action(
    gateway: Gateway, browser: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    page = browser.new_page(viewport=viewport)
    try:
        sign_up_in_browser(page, gateway.url, "Alice")
        alice = page.evaluate("JSON.parse(localStorage.getItem('principal')).id")
        bob = sign_up_bob(gateway)
        gateway.players.update(alice=alice, bob=bob)
        page.goto(f"{gateway.url}/#/table/{TABLE}")
        page.wait_for_selector(".seat[data-seat='2'] .name:has-text('Bob')")
        page.wait_for_selector(".table-head .status.online")

        level = Level(small_blind=10, big_blind=20)
        seated = [SeatedPlayer(seat=1, player_id=alice, stack=1500), SeatedPlayer(seat=2, player_id=bob, stack=1500)]
        gateway.publish(
            HandStarted(
                table_id=TABLE, tournament_id=None, hand_id="h-1", hand_no=1, button_seat=1, level=level, seats=seated
            )
        )
        gateway.publish(HoleCardsDealt(table_id=TABLE, hand_id="h-1", player_id=alice, seat=1, cards=["As", "Kd"]))
        gateway.publish(HoleCardsDealt(table_id=TABLE, hand_id="h-1", player_id=bob, seat=2, cards=["Qh", "Qc"]))
        for seat, player, action, amount, stack, pot in (
            (1, alice, "post_small_blind", 10, 1490, 10),
            (2, bob, "post_big_blind", 20, 1480, 30),
        ):
            gateway.publish(
                ActionTaken(
                    table_id=TABLE,
                    hand_id="h-1",
                    seat=seat,
                    player_id=player,
                    action=action,
                    amount=amount,
                    stack_after=stack,
                    pot_after=pot,
                )  # type: ignore[arg-type]
            )
        gateway.publish(
            ActionRequested(
                table_id=TABLE,
                hand_id="h-1",
                seat=1,
                player_id=alice,
                deadline="2099-01-01T00:00:00Z",
                time_bank_seconds=30,
                can_check=False,
                call_amount=10,
                min_raise_to=40,
                max_raise_to=1500,
            )
        )
        page.wait_for_selector("button[data-action='raise']")
        mine = [c.get_attribute("aria-label") for c in page.locator(".my-cards .card").all()]
        assert mine == ["As", "Kd"]
        assert page.locator("[aria-label='Qh'], [aria-label='Qc']").count() == 0  # Bob's cards never reach Alice
        assert page.locator("button[data-action='check']").count() == 0  # folding or calling: a bet is pending
        assert "10" in page.locator("button[data-action='call']").inner_text()
        slider = page.locator(".sizing input[type=range]")
        assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("40", "1500")
        amount = page.locator(".sizing input[type=number]")
        amount.fill("99999")
        amount.press("Tab")
        assert amount.input_value() == "1500"  # never beyond the maximum
        amount.fill("300")
        amount.press("Tab")
        screenshot(page, "my-turn")
        page.click("button[data-action='raise']")
        sent = wait_for(lambda: gateway.commands(PlayerAct.TYPE))
        assert sent == [{"table_id": TABLE, "hand_id": "h-1", "player_id": alice, "action": "raise", "amount": 300}]

        gateway.publish(
            ActionTaken(
                table_id=TABLE,
                hand_id="h-1",
                seat=1,
                player_id=alice,
                action="raise",
                amount=290,
                raise_to=300,
                stack_after=1200,
                pot_after=320,
            )
        )
        gateway.publish(StreetDealt(table_id=TABLE, hand_id="h-1", street="flop", board=["2c", "7d", "Ts"]))
        gateway.publish(ChatPosted(table_id=TABLE, player_id=bob, text="nice raise"))
        page.wait_for_selector(".chat-lines li:has-text('Bob: nice raise')")
        board = [c.get_attribute("aria-label") for c in page.locator(".board .card").all()]
        assert board == ["2c", "7d", "Ts"]
        assert "320" in page.locator(".pot").inner_text()
        assert page.locator("button[data-action='raise']").count() == 0  # not Alice's turn any more
        screenshot(page, "flop")

        gateway.stop()  # the connection drops: the client retries (P-13.1), the table stays on screen
        page.wait_for_selector(".table-head .status:has-text('reconnecting')", timeout=15000)
        assert page.locator(".board .card").count() == 3
    finally:
        page.close()


def test_the_lobby_registers_and_opens_the_table_when_the_player_is_seated(
    gateway: Gateway, browser: Any, screenshot: Any
) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        sign_up_in_browser(page, gateway.url, "Alice")
        alice = page.evaluate("JSON.parse(localStorage.getItem('principal')).id")
        gateway.players.update(alice=alice, bob=sign_up_bob(gateway))
        card = page.locator("article[data-tournament='snd-1']")
        card.wait_for()
        assert "€5.00" in card.inner_text() and "0/2" in card.inner_text()
        page.wait_for_selector("#lobby-status.online")
        card.locator("button[data-tournament]").click()
        wait_for(lambda: gateway.registered == [alice])
        gateway.publish(PlayerRegistered(tournament_id="snd-1", player_id=alice, entry="buy_in", registered=1))
        page.wait_for_selector("article[data-tournament='snd-1'] :text('1/2')")
        screenshot(page, "registered")
        seats = [
            SeatedPlayer(seat=1, player_id=alice, stack=1500),
            SeatedPlayer(seat=2, player_id=gateway.players["bob"], stack=1500),
        ]
        gateway.publish(TableOpened(table_id=TABLE, tournament_id="snd-1", shard=0, max_seats=2, seats=seats))
        page.wait_for_url(f"**/#/table/{TABLE}")  # the client opens the player's table by itself
        page.wait_for_selector(".seat[data-seat='2'] .name:has-text('Bob')")
    finally:
        page.close()
