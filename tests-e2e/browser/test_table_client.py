"""The table in the browser, against a gateway alone: the table engine is faked and its events are put on the
gateway's bus by the test, so the client's table is checked without a tournament director.

P-1.4: the player sees their own hole cards and nobody else's; the action bar offers what the request offers,
with the bet size kept between `min_raise_to` and `max_raise_to`; the action reaches the bus as the player's;
board, pot and chat follow the stream; losing the table connection shows the client retrying (P-13.1).
Issue 15: a reload mid-hand brings back the player's cards, turn and true status; the showdown stays readable
(cards, the winning five, the hand's name in both languages, the busted seat) until the next hand; the table, the
player's cards and the actions fit one screen on a laptop and on a phone held upright."""

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
from browser_support import DESKTOP, LAPTOP, PHONE, free_base_port, sign_up_in_browser
from gateway.app import create_app
from gateway.settings import Settings
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.events.base import Event
from platform_kit.events.table import (
    ActionRequested,
    ActionTaken,
    ChatPosted,
    HandCompleted,
    HandStarted,
    HoleCardsDealt,
    Level,
    PlayerAct,
    PlayerUnseated,
    PotResult,
    SeatedPlayer,
    SeatResult,
    ShowdownRevealed,
    ShownHand,
    SittingOutChanged,
    StreetDealt,
    TableOpened,
)
from platform_kit.events.tournament import PlayerRegistered

pytestmark = pytest.mark.e2e

TABLE = "t-e2e"
#: A second table, for the player at two tables at once (issue 15, item 14).
OTHER_TABLE = "t-e2e-2"
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


def running_tournament() -> dict[str, Any]:
    """A rebuy tournament at level 2, three entrants, as the director details it."""
    levels = [
        {"small_blind": sb, "big_blind": 2 * sb, "ante": 0, "duration_seconds": 600}
        for sb in (10, 15, 25, 50, 75, 100, 150)
    ]
    definition = {
        "blinds": {"levels": levels, "breaks": [{"after_level": 6, "duration_seconds": 300}], "big_blind_ante": False},
        "rebuy": {
            "price": {"prize_part_cents": 400, "fee_cents": 100},
            "chips": 1500,
            "max_rebuys": 3,
            "last_level": 6,
            "eligibility": "out_of_chips",
        },
        "addon": {
            "price": {"prize_part_cents": 400, "fee_cents": 100},
            "chips": 3000,
            "max_addons": 1,
            "at_breaks_after_levels": [6],
        },
        "satellite": None,
    }
    clock = {
        "level": 2,
        "on_break": False,
        "small_blind": 15,
        "big_blind": 30,
        "ante": 0,
        "ends_at": "2099-01-01T00:00:00Z",
    }
    return SIT_AND_GO | {
        "tournament_id": "mtt-1",
        "name": "Sunday Rebuy",
        "kind": "scheduled",
        "status": "running",
        "registered": 3,
        "max_players": 100,
        "definition": definition,
        "payout_schedule": {"entrants": 3, "shares_bps": [5000, 3000, 2000]},
        "prize_pool_cents": 2000,
        "prizes_cents": [1000, 600, 400],
        "players_left": 2,
        "clock": clock,
        "tables": [],
    }


def table_view(alice: str, bob: str, alice_away: bool = False) -> dict[str, Any]:
    """`alice_away`: the engine's view just after Alice's page closed (a reload): disconnected, sat out."""
    seats = [
        {
            "seat": 1,
            "player_id": alice,
            "stack": 1500,
            "bet": 0,
            "in_hand": False,
            "sitting_out": alice_away,
            "connected": not alice_away,
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
        self.alice_away = False
        #: The PHH of hand h-1, when a test needs a whole hand (the replayer's).
        self.phh: str | None = None
        #: Every path asked of the faked services, in order.
        self.requested: list[str] = []
        #: The tournament mtt-1 is over (issue 15, item 11: its results lead to its hands).
        self.tournament_finished = False
        #: The query of each request for mtt-1's hands, in order.
        self.hand_queries: list[dict[str, str]] = []
        #: The rating service's leaderboard answers, by the `standing` asked for ("closed" or "now").
        self.leaderboards: dict[str, dict[str, Any]] = {}
        app = create_app(settings, bus=self.bus, services_transport=httpx.MockTransport(self._services))
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.server.serve(),), daemon=True)

    def _services(self, request: httpx.Request) -> httpx.Response:
        """The table engine's table, and a director with one heads-up sit'n'go that accepts registrations."""
        path = request.url.path
        self.requested.append(path)
        if path in (f"/v1/tables/{TABLE}", f"/v1/tables/{OTHER_TABLE}"):
            view = table_view(self.players["alice"], self.players["bob"], self.alice_away)
            return httpx.Response(200, json=view | {"table_id": path.rsplit("/", 1)[1]})
        if path == "/v1/tournaments":
            return httpx.Response(200, json=[SIT_AND_GO | {"registered": len(self.registered)}])
        if path == f"/v1/tables/{TABLE}/hands":
            return httpx.Response(200, json={"hands": [self._hand()], "next_before": None})
        if path == "/internal/v1/hands/h-1/phh":
            alice, bob = self.players["alice"], self.players["bob"]
            phh = self.phh or f'variant = "NT"\nplayers = ["{alice}", "{bob}"]\nstarting_stacks = [1500, 1500]\n'
            return httpx.Response(200, text=phh, headers={"content-type": "application/toml"})
        if path == "/v1/leaderboard" and self.leaderboards:
            return httpx.Response(200, json=self.leaderboards[request.url.params.get("standing", "closed")])
        if path == "/v1/tournaments/mtt-1":
            over = {"status": "finished", "players_left": 1, "clock": None} if self.tournament_finished else {}
            return httpx.Response(200, json=running_tournament() | over)
        if path == "/v1/tournaments/mtt-1/standings":
            return httpx.Response(200, json=self._standings())
        if path == "/v1/tournaments/mtt-1/hands":
            self.hand_queries.append(dict(request.url.params))
            return httpx.Response(200, json=self._tournament_hands(request.url.params.get("player_id")))
        if path.startswith("/internal/v1/players/") and path.endswith("/tournaments"):
            entries = [{"tournament_id": "snd-1", "status": "registering"}] if self.registered else []
            if self.tournament_finished:  # Alice won mtt-1
                entries.append({"tournament_id": "mtt-1", "status": "finished", "position": 1, "prize_cents": 1000})
            return httpx.Response(200, json=entries)
        if path == "/internal/v1/tournaments/snd-1/registrations":
            self.registered.append(json.loads(request.content)["player_id"])
            return httpx.Response(201, json={"registered": len(self.registered)})
        if path.startswith("/internal/v1/tournaments/snd-1/registrations/") and request.method == "DELETE":
            self.registered.remove(path.rsplit("/", 1)[1])
            return httpx.Response(200, json={"refunded_cents": 500})
        body = {"type": "urn:problem:not_found", "title": "Not Found", "status": 404, "code": "not_found"}
        return httpx.Response(404, content=json.dumps(body), headers={"content-type": "application/problem+json"})

    def _hand(self) -> dict[str, Any]:
        players = [
            {"seat": 1, "player_id": self.players["alice"], "stack": 1500},
            {"seat": 2, "player_id": self.players["bob"], "stack": 1500},
        ]
        return {
            "hand_id": "h-1",
            "table_id": TABLE,
            "hand_no": 1,
            "status": "completed",
            "started_at": "2030-06-01T10:00:00Z",
            "level": {"small_blind": 10, "big_blind": 20, "ante": 0},
            "players": players,
            "end_stacks": {"1": 3000, "2": 0},
        }

    def _tournament_hands(self, player_id: str | None) -> dict[str, Any]:
        """mtt-1's hands, newest first: Bob against Carol at its second table, Alice against Bob at its first."""
        bob = self.players["bob"]
        two = [{"seat": 1, "player_id": bob, "stack": 1000}, {"seat": 2, "player_id": "p-carol", "stack": 500}]
        hands = [
            self._hand()
            | {"hand_id": "h-2", "table_id": "mtt-1.main.2", "players": two, "end_stacks": {"1": 1500, "2": 0}},
            self._hand() | {"table_id": "mtt-1.main.1", "end_stacks": {"1": 1660, "2": 1340}},
        ]
        mine = [hand for hand in hands if any(p["player_id"] == player_id for p in hand["players"])]
        return {"hands": mine if player_id else hands, "next_before": None}

    def _standings(self) -> dict[str, Any]:
        """Alice and Bob play on; Carol finished third and won 4.00. Once over: Alice first, Bob second."""
        if self.tournament_finished:
            places = [(self.players["alice"], 1, 1000), (self.players["bob"], 2, 600), ("p-carol", 3, 400)]
            players = [
                {"player_id": who, "chips": 0, "table_id": None, "seat": None, "position": n, "prize_cents": prize}
                for who, n, prize in places
            ]
            return {"tournament_id": "mtt-1", "status": "finished", "players": players}
        players = [
            {"player_id": self.players["alice"], "chips": 2000, "table_id": "mtt-1.main.1", "seat": 1},
            {"player_id": self.players["bob"], "chips": 1000, "table_id": "mtt-1.main.1", "seat": 2},
            {"player_id": "p-carol", "chips": 0, "table_id": None, "seat": None, "position": 3, "prize_cents": 400},
        ]
        return {"tournament_id": "mtt-1", "status": "running", "players": players}

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
        asyncio.run_coroutine_threadsafe(self.bus.publish(envelope.outgoing(event.routing_key())), self.loop).result(5)

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


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A browser page at the viewport the test is parametrized with (indirectly), a phone's by default."""
    opened = browser.new_page(viewport=getattr(request, "param", PHONE))
    try:
        yield opened
    finally:
        opened.close()


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


@pytest.mark.parametrize("page", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
def test_p1_4_the_table_shows_own_cards_offers_legal_bets_and_sends_the_action(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
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


def test_the_lobby_registers_and_opens_the_table_when_the_player_is_seated(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, _ = sign_up_both(gateway, page)
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


def sign_up_both(gateway: Gateway, page: Any) -> tuple[str, str]:
    """Alice signs up in the browser, Bob over the API. Returns their ids."""
    sign_up_in_browser(page, gateway.url, "Alice")
    alice = page.evaluate("JSON.parse(localStorage.getItem('principal')).id")
    bob = sign_up_bob(gateway)
    gateway.players.update(alice=alice, bob=bob)
    return alice, bob


def seated_at_the_table(gateway: Gateway, page: Any) -> tuple[str, str]:
    """Both signed up; Alice opens the table, online. Returns their ids."""
    alice, bob = sign_up_both(gateway, page)
    page.goto(f"{gateway.url}/#/table/{TABLE}")
    page.wait_for_selector(".seat[data-seat='2'] .name:has-text('Bob')")
    page.wait_for_selector(".table-head .status.online")
    return alice, bob


def deal_and_ask_alice(
    gateway: Gateway, alice: str, bob: str, commitments: dict[str, str] | None = None, **request: Any
) -> None:
    """Hand h-1: Alice (button, small blind) holds As Kd, Bob Qh Qc; the blinds are posted and Alice is asked.
    `commitments`: the deck's (`deck_commitment`, `next_deck_commitment`) published with the hand."""
    level = Level(small_blind=10, big_blind=20)
    seated = [SeatedPlayer(seat=1, player_id=alice, stack=1500), SeatedPlayer(seat=2, player_id=bob, stack=1500)]
    gateway.publish(
        HandStarted(
            table_id=TABLE,
            tournament_id=None,
            hand_id="h-1",
            hand_no=1,
            button_seat=1,
            level=level,
            seats=seated,
            **(commitments or {}),
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
                action=action,  # type: ignore[arg-type]
                amount=amount,
                stack_after=stack,
                pot_after=pot,
            )
        )
    asked = {"can_check": False, "call_amount": 10, "min_raise_to": 40, "max_raise_to": 1500} | request
    gateway.publish(
        ActionRequested(
            table_id=TABLE,
            hand_id="h-1",
            seat=1,
            player_id=alice,
            deadline="2099-01-01T00:00:00Z",
            time_bank_seconds=30,
            **asked,
        )
    )


def cards_in(page: Any, selector: str) -> list[str]:
    """The cards (as "As") that `selector` finds."""
    return [c.get_attribute("aria-label") for c in page.locator(selector).all()]


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_a_reload_mid_hand_restores_own_cards_the_turn_and_the_true_status(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='raise']")
    # The engine saw Alice's page go: its public state says she is disconnected and sitting out.
    gateway.alice_away = True
    page.reload()
    page.wait_for_selector(".table-head .status.online")
    page.wait_for_selector(".my-cards .card >> nth=1")
    assert cards_in(page, ".my-cards .card") == ["As", "Kd"]  # her own cards, from the channel's history
    assert page.locator("[aria-label='Qh'], [aria-label='Qc']").count() == 0  # never Bob's (P-1.4)
    page.wait_for_selector("button[data-action='raise']")  # and her turn, still pending
    assert "10" in page.locator("button[data-action='call']").inner_text()
    # Back in: the engine seats her in again; her seat reads neither "disconnected" nor "sitting out".
    gateway.publish(SittingOutChanged(table_id=TABLE, player_id=alice, seat=1, sitting_out=False, reason="reconnected"))
    page.wait_for_selector(".seat[data-seat='1']:not(.away)")
    assert page.locator(".seat[data-seat='1'] .seat-status").count() == 0
    assert page.locator("[data-sit='out']").count() == 1  # she may sit out: she is not sitting out now
    screenshot(page, "after-reload")


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_the_showdown_stays_readable_until_the_next_hand(gateway: Gateway, page: Any, screenshot: Any) -> None:
    alice, bob = seated_at_the_table(gateway, page)
    deal_and_ask_alice(gateway, alice, bob)
    page.wait_for_selector("button[data-action='raise']")
    gateway.publish(StreetDealt(table_id=TABLE, hand_id="h-1", street="flop", board=["2s", "7s", "Ts"]))
    gateway.publish(StreetDealt(table_id=TABLE, hand_id="h-1", street="turn", board=["2s", "7s", "Ts", "Qs"]))
    board = ["2s", "7s", "Ts", "Qs", "3d"]
    gateway.publish(StreetDealt(table_id=TABLE, hand_id="h-1", street="river", board=board))
    shown = [
        ShownHand(seat=1, player_id=alice, cards=["As", "Kd"], category="flush"),
        ShownHand(seat=2, player_id=bob, cards=["Qh", "Qc"], category="three_of_a_kind"),
    ]
    gateway.publish(ShowdownRevealed(table_id=TABLE, hand_id="h-1", shown=shown, mucked_seats=[]))
    gateway.publish(
        HandCompleted(
            table_id=TABLE,
            tournament_id=None,
            hand_id="h-1",
            hand_no=1,
            button_seat=1,
            board=board,
            results=[
                SeatResult(seat=1, player_id=alice, start_stack=1500, end_stack=3000),
                SeatResult(seat=2, player_id=bob, start_stack=1500, end_stack=0),
            ],
            pots=[PotResult(amount=3000, eligible_seats=[1, 2], winner_seats=[1], shares=[3000])],
            shown=shown,
            busted_player_ids=[bob],
        )
    )
    gateway.publish(PlayerUnseated(table_id=TABLE, tournament_id=None, player_id=bob, reason="busted"))
    line = page.locator(".showdown-line")
    line.wait_for()
    text = line.inner_text()
    assert "Alice wins 3,000 with a flush, ace high" in text and "Alice vince 3.000 con colore all'asso" in text
    assert "Alice wins 3,000 with a flush, ace high" in page.locator(".hand-log").inner_text()
    # The winning five: As and the four spades of the board, highlighted; Bob's shown cards and seat stay.
    assert sorted(cards_in(page, ".felt .card.best")) == sorted(["As", "2s", "7s", "Ts", "Qs"])
    assert cards_in(page, ".seat[data-seat='2'] .card") == ["Qh", "Qc"]
    assert "Out" in page.locator(".seat[data-seat='2']").inner_text()
    assert page.locator(".seat[data-seat='2'] .hand-name").inner_text().startswith("three of a kind, queens")
    screenshot(page, "showdown")

    carol = "p-carol"
    seated = [SeatedPlayer(seat=1, player_id=alice, stack=3000), SeatedPlayer(seat=3, player_id=carol, stack=1500)]
    level = Level(small_blind=10, big_blind=20)
    gateway.publish(
        HandStarted(
            table_id=TABLE, tournament_id=None, hand_id="h-2", hand_no=2, button_seat=3, level=level, seats=seated
        )
    )
    page.wait_for_selector(".showdown-line", state="detached")  # the next hand: the showdown goes
    assert page.locator(".seat[data-seat='2'].empty").count() == 1  # and so does the busted player's seat
    assert page.locator(".felt .card.best").count() == 0


def inside(box: dict[str, float], viewport: dict[str, int]) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and (box["y"] + box["height"] <= viewport["height"] + 0.5)
    )


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_the_table_own_cards_and_actions_fit_one_screen(gateway: Gateway, page: Any, screenshot: Any) -> None:
    viewport = page.viewport_size
    alice, bob = seated_at_the_table(gateway, page)
    # The big blind's option preflop: nothing to call, the blind already in: the sizing button raises.
    deal_and_ask_alice(gateway, alice, bob, can_check=True, call_amount=0)
    page.wait_for_selector("button[data-action='raise']")
    visible = [
        ".felt",
        ".my-cards",
        ".timer",
        ".bank-bar",  # issue 15 (12): the time bank, with the actions
        ".sizing .quick",
        ".sizing input[type=range]",
        ".sizing input[type=number]",
    ]
    visible += [f"button[data-action='{action}']" for action in ("check", "raise")]
    for selector in visible:
        box = page.locator(selector).bounding_box()
        assert box and inside(box, viewport), (selector, box, viewport)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # no sideways scrolling
    assert page.evaluate("window.scrollY") == 0
    raise_button = page.locator("button[data-action='raise']")
    assert raise_button.inner_text().startswith("Raise to") and "Bet" not in raise_button.inner_text()
    # The dealer button is its own chip, not part of the (truncated) nickname.
    assert page.locator(".seat[data-seat='1'] > .dealer").count() == 1
    assert page.locator(".seat .name .dealer").count() == 0
    screenshot(page, "one-screen")
    raise_button.click()
    sent = wait_for(lambda: gateway.commands(PlayerAct.TYPE))
    assert sent[0]["action"] == "raise" and sent[0]["amount"] == 40


@pytest.mark.parametrize("page", [PHONE, LAPTOP], ids=["phone", "laptop"], indirect=True)
def test_issue15_a_running_tournament_shows_prizes_field_clock_windows_and_standings(
    gateway: Gateway, page: Any, screenshot: Any
) -> None:
    viewport = page.viewport_size
    sign_up_both(gateway, page)
    page.goto(f"{gateway.url}/#/tournament/mtt-1")
    page.wait_for_selector("table.payouts")
    payouts = [row.inner_text().split("\t") for row in page.locator("table.payouts tbody tr").all()]
    assert [cells[1:] for cells in payouts] == [["50%", "€10.00"], ["30%", "€6.00"], ["20%", "€4.00"]]
    field = page.locator(".field").inner_text()
    assert "Players left · Giocatori rimasti: 2" in field and "Average stack · Stack medio: 1,500" in field
    assert "Largest · Più alto: 2,000" in field and "Your rank · La tua posizione: 1/3" in field
    live = page.locator(".live").inner_text()
    assert "Level · Livello 2" in live and "15/30" in live and "25/50" in live  # now, and the next blinds
    assert "Next break: after level 6" in live and "Prossima pausa: dopo il livello 6" in live
    assert "Rebuy: 1,500 chips for €5.00, up to 3, until the end of level 6" in live and "open" in live
    assert "Rebuy: 1.500 fiches per 5,00\xa0€, fino a 3, entro la fine del livello 6" in live
    assert "Add-on: 3,000 chips for €5.00, at the break after level 6" in live
    carol = page.locator("table.standings tbody tr").nth(2)
    assert carol.locator("td").first.inner_text().endswith("3") and "€4.00" in carol.inner_text()  # position, prize
    box = page.locator("table.standings").bounding_box()
    assert box and box["x"] + box["width"] <= viewport["width"]  # every column on screen, a phone's too
    assert "mtt-1" not in page.locator("table.standings").inner_text()  # tables by number, not by id
    assert "Table 1 · Tavolo 1" in page.locator("table.standings").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, "tournament")
    page.click("button[data-lang='it']")  # Italian chosen: the page's language, Italian numbers first
    page.wait_for_selector("html[lang='it']")
    assert "Giocatori rimasti · Players left: 2" in page.locator(".field").inner_text()
    assert "10,00\xa0€" in page.locator("table.payouts").inner_text()


@pytest.mark.parametrize("page", [LAPTOP], ids=["laptop"], indirect=True)
def test_issue15_the_api_docs_render_without_internet(gateway: Gateway, page: Any, screenshot: Any) -> None:
    elsewhere: list[str] = []

    def local_only(route: Any) -> None:
        if route.request.url.startswith(gateway.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", local_only)
    page.goto(f"{gateway.url}/docs")
    page.wait_for_selector(".swagger-ui .info .title:has-text('Gateway')")
    assert page.locator(".opblock").count() > 10  # the operations, drawn by Swagger UI
    assert elsewhere == []
    screenshot(page, "docs")


def test_issue15_the_downloaded_hand_history_names_players_by_nickname(
    gateway: Gateway, page: Any, tmp_path: Path
) -> None:
    alice, bob = sign_up_both(gateway, page)
    page.goto(f"{gateway.url}/#/table/{TABLE}/hands")
    row = page.locator("article[data-hand='1']")
    row.wait_for()
    assert "Alice 1,500 → 3,000" in row.inner_text()
    with page.expect_download() as started:
        row.locator("button").click()
    saved = tmp_path / "hand.phh"
    started.value.save_as(saved)
    text = saved.read_text()
    assert 'players = ["Alice", "Bob"]' in text  # P-11.5: nicknames, never the players' ids
    assert alice not in text and bob not in text
