"""The platform around the director, in one process: the real wallet and rating apps behind httpx's ASGI
transport (the director's HTTP clients take it as their transport), the real table-engine service on the same
in-memory bus consuming its shard's commands, bots answering every `table.action.requested` with a `table.act`,
SQLite files, one frozen clock and seeded generators.

The director's clock loop is slowed right down: tests move the frozen clock and call `tick()` themselves.

Play is waited for by what it publishes, never for a fixed time: a tournament is hundreds of hands, seconds on
an idle machine and minutes on a loaded one, so `until` gives up only once the bus has carried nothing for
`QUIET_SECONDS`.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
from fastapi import FastAPI
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events import Event
from platform_kit.events import table as table_bus
from platform_kit.events import tournament as events
from platform_kit.events.table import command_routing_key
from platform_kit.testing import eventually, running_app
from rating.app import create_app as rating_app
from rating.settings import Settings as RatingSettings
from table_engine.app import create_app as engine_app
from table_engine.settings import Settings as EngineSettings
from tournament_director.app import create_app as director_app
from tournament_director.service.clock import tick
from tournament_director.service.context import Director
from tournament_director.service.money import drive_waiting
from tournament_director.settings import Settings as DirectorSettings
from wallet.app import create_app as wallet_app
from wallet.settings import Settings as WalletSettings

T = TypeVar("T")
TOKEN = "dev-internal-token"
START = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
CONCESSIONAIRE = "c1"
CURRENCY = "EUR"
ADMIN = {"X-Principal-Role": "admin", "X-Principal-Id": "admin-1"}
OPERATOR = {"X-Principal-Role": "operator", "X-Principal-Id": "op-1", "X-Concessionaire-Id": CONCESSIONAIRE}
#: Long enough that a test's frozen clock never lets a rebuy offer, a level or a player's turn run out by itself.
NEVER = 3600.0
RELAY_POLL_SECONDS = 0.05
#: How long the platform may carry no message at all before a wait on play calls it stuck. Every step of play
#: or settlement is a relay poll and a handler away from the next message: a second or two at worst even on a
#: machine loaded far past its cores (CI saw a load of 15 on two), where a whole tournament takes minutes. The
#: length of a wait is capped only by pytest's timeout of a test.
QUIET_SECONDS = 30.0
#: The table engine reads its tables back at start-up: instant on a fresh database, slow only on a loaded
#: machine, and a start-up that never ends is a bug this bound reports.
START_SECONDS = 120.0


def player_headers(player: str) -> dict[str, str]:
    return {"X-Principal-Role": "player", "X-Principal-Id": player, "X-Concessionaire-Id": CONCESSIONAIRE}


class Bots:
    """Every player is a bot: facing a bet it shoves (raises all in) with probability `shove`, folds with
    probability `fold`, else calls; otherwise it checks. Short hands, a few busts per hand, real showdowns."""

    def __init__(self, bus: InMemoryBus, shards: int, seed: int, shove: float = 0.5, fold: float = 0.3) -> None:
        self.bus = bus
        self.shards = shards
        self.rng = random.Random(f"bots:{seed}")
        self.shove = shove
        self.fold = fold
        self.actions = 0
        #: While set, requests wait here unanswered (the hand in progress stalls).
        self.held: list[Envelope] | None = None
        #: Hold as soon as this many players were eliminated.
        self.hold_after_eliminations: int | None = None

    def hold(self) -> None:
        self.held = self.held if self.held is not None else []

    async def release(self) -> None:
        waiting, self.held, self.hold_after_eliminations = self.held or [], None, None
        for envelope in waiting:
            await self.act(envelope)

    def eliminations(self) -> int:
        return sum(1 for _, envelope in self.bus.published if envelope.type == "tournament.player.eliminated")

    async def act(self, envelope: Envelope) -> None:
        if self.hold_after_eliminations is not None and self.eliminations() >= self.hold_after_eliminations:
            self.hold()
        if self.held is not None:
            self.held.append(envelope)
            return
        request = envelope.event()
        assert isinstance(request, table_bus.ActionRequested)
        draw = self.rng.random()
        if request.call_amount == 0 and request.can_check:
            action, amount = "check", None
        elif request.max_raise_to is not None and draw < self.shove:
            action, amount = "raise", request.max_raise_to
        elif draw < self.shove + self.fold:
            action, amount = "fold", None
        else:
            action, amount = "call", None
        command = table_bus.PlayerAct(
            table_id=request.table_id,
            hand_id=request.hand_id,
            player_id=request.player_id,
            action=action,
            amount=amount,
        )
        key = command_routing_key(command, request.table_id, self.shards)
        self.actions += 1
        await self.bus.publish(Envelope.wrap(command, producer="bots").outgoing(key))


class LosesAnswers(httpx.AsyncBaseTransport):
    """The wallet, except that the first answer to a buy-in and to the payouts is lost after the wallet posted
    them: the director sees a network error, as if it had died between the wallet's commit and its own."""

    def __init__(self, wallet: httpx.AsyncBaseTransport) -> None:
        self.wallet = wallet
        self.lost: set[str] = set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.wallet.handle_async_request(request)
        operation = request.url.path.rsplit("/", 1)[-1]
        if operation in ("entries", "payouts") and operation not in self.lost:
            self.lost.add(operation)
            raise httpx.ReadTimeout("answer lost", request=request)
        return response


@dataclass
class Platform:
    bus: InMemoryBus
    clock: FrozenClock
    director_app: FastAPI
    director: httpx.AsyncClient
    wallet: httpx.AsyncClient
    bots: Bots

    # -- the director's API --------------------------------------------------------------------------------------
    @property
    def service(self) -> Director:
        director: Director = self.director_app.state.services.director
        return director

    async def create(self, body: dict[str, Any], headers: dict[str, str] = ADMIN) -> dict[str, Any]:
        answer = await self.director.post(
            "/internal/v1/tournaments", json={"concessionaire_id": CONCESSIONAIRE, **body}, headers=_internal(headers)
        )
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    async def register(self, tournament_id: str, player: str, **body: Any) -> httpx.Response:
        return await self.director.post(
            f"/internal/v1/tournaments/{tournament_id}/registrations",
            json={"player_id": player, "concessionaire_id": CONCESSIONAIRE, **body},
            headers=_internal(player_headers(player), key=uuid.uuid4().hex),
        )

    async def unregister(self, tournament_id: str, player: str) -> httpx.Response:
        return await self.director.delete(
            f"/internal/v1/tournaments/{tournament_id}/registrations/{player}",
            headers=_internal(player_headers(player), key=uuid.uuid4().hex),
        )

    async def post(
        self, path: str, body: Any = None, headers: dict[str, str] = ADMIN, key: str | None = None
    ) -> httpx.Response:
        return await self.director.post(path, json=body, headers=_internal(headers, key=key or uuid.uuid4().hex))

    async def get(self, path: str, headers: dict[str, str] = ADMIN) -> httpx.Response:
        return await self.director.get(path, headers=_internal(headers))

    async def tournament(self, tournament_id: str) -> dict[str, Any]:
        answer = await self.director.get(f"/v1/tournaments/{tournament_id}")
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def tick(self, advance: timedelta = timedelta(0)) -> None:
        """Move the frozen clock and let the director's clock loop look at it once."""
        self.clock.advance(advance)
        await tick(self.service)

    async def until(self, check: Callable[[], Awaitable[T]]) -> T:
        """Wait until `check()` is truthy while play goes on: fail only after `QUIET_SECONDS` in which not one
        message was published (the platform is stuck), however long the play takes before that."""
        return await eventually(check, timeout=QUIET_SECONDS, interval=0.1, progress=lambda: len(self.bus.published))

    async def settled(self, tournament_id: str) -> dict[str, Any]:
        """Wait until the tournament has ended, every money step of its end is posted, and the director's
        `tournament.settlement.completed` is on the bus."""

        async def check() -> dict[str, Any]:
            await drive_waiting(self.service)
            found = await self.tournament(tournament_id)
            published = any(e.tournament_id == tournament_id for e in self.events(events.SettlementCompleted))
            return found if found["settled"] and published else {}

        return await self.until(check)

    async def published(self) -> None:
        """Until everything the director has written so far is on the bus."""
        await self.director_app.state.runtime.relay.flush()

    # -- the wallet ----------------------------------------------------------------------------------------------
    async def fund(self, player: str, amount: int, concessionaire: str = CONCESSIONAIRE) -> None:
        """Open the player's account with `concessionaire` and deposit `amount`."""
        headers = {"X-Internal-Token": TOKEN, "X-Concessionaire-Id": concessionaire}
        opened = await self.wallet.post(
            f"/internal/v1/partner/players/{player}/accounts",
            json={"currency": CURRENCY},
            headers={**headers, "Idempotency-Key": f"open:{player}"},
        )
        assert opened.status_code in (200, 201), opened.text
        deposit = await self.wallet.post(
            f"/internal/v1/partner/players/{player}/deposits",
            json={"currency": CURRENCY, "amount": amount},
            headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
        )
        assert deposit.status_code == 201, deposit.text

    async def balance(self, player: str, kind: str = "player") -> int:
        """The player's cash (`kind` player) or bonus money (`kind` bonus) in the test currency."""
        answer = await self.wallet.get(f"/internal/v1/players/{player}/accounts", headers={"X-Internal-Token": TOKEN})
        assert answer.status_code == 200, answer.text
        accounts = answer.json()["accounts"]
        return sum(a["balance"] for a in accounts if a["currency"] == CURRENCY and a["kind"] == kind)

    async def escrow(self, tournament_id: str) -> int:
        answer = await self.wallet.get(f"/internal/v1/tournaments/{tournament_id}", headers={"X-Internal-Token": TOKEN})
        assert answer.status_code == 200, answer.text
        escrow = answer.json()["escrow"]
        return 0 if escrow is None else int(escrow["balance"])

    async def reconciled(self) -> bool:
        answer = await self.wallet.get("/internal/v1/reconciliation", headers={"X-Internal-Token": TOKEN})
        assert answer.status_code == 200, answer.text
        return bool(answer.json()["ok"])

    # -- the bus -------------------------------------------------------------------------------------------------
    def events(self, kind: type[Event]) -> list[Any]:
        return [envelope.event() for _, envelope in self.bus.published if envelope.type == kind.TYPE]

    async def publish(self, event: Event) -> None:
        await self.bus.publish(Envelope.wrap(event, producer="test").outgoing())


def _internal(headers: dict[str, str], key: str | None = None) -> dict[str, str]:
    sent = {"X-Internal-Token": TOKEN, **headers}
    if key is not None:
        sent["Idempotency-Key"] = key
    return sent


@asynccontextmanager
async def running(
    directory: Path,
    *,
    seed: int = 7,
    director_database: str | None = None,
    wrap_wallet: Callable[[httpx.AsyncBaseTransport], httpx.AsyncBaseTransport] | None = None,
    **director_settings: Any,
) -> AsyncIterator[Platform]:
    """Every app started on `directory`'s SQLite files (the director's on `director_database` if given);
    `wrap_wallet` wraps the transport of the director's calls to the wallet (to lose answers)."""
    bus = InMemoryBus()
    clock = FrozenClock(START)
    wallet = wallet_app(WalletSettings(database_url=f"sqlite+aiosqlite:///{directory}/wallet.db"), bus=bus, clock=clock)
    rating = rating_app(RatingSettings(database_url=f"sqlite+aiosqlite:///{directory}/rating.db"), bus=bus, clock=clock)
    engine = engine_app(
        EngineSettings(
            database_url=f"sqlite+aiosqlite:///{directory}/table-engine.db",
            timer_interval_seconds=NEVER,
            # The engine's timer never runs on this frozen clock: each hand is dealt as soon as the director asks
            # (the pace of play has its own tests in the table engine's).
            hand_pause_seconds=0,
        ),
        bus=bus,
        clock=clock,
        rng=random.Random(f"decks:{seed}"),
    )
    settings = DirectorSettings(
        database_url=director_database or f"sqlite+aiosqlite:///{directory}/director.db",
        clock_interval_seconds=NEVER,
        rebuy_offer_seconds=int(NEVER),
        # The lobby's schedule stays empty unless a test sets one: each test counts its own tournaments.
        **{"lobby_schedule": [], **director_settings},
    )
    director = director_app(
        settings,
        bus=bus,
        clock=clock,
        rng=random.Random(f"seats:{seed}"),
        wallet_transport=(wrap_wallet or (lambda transport: transport))(httpx.ASGITransport(app=wallet)),
        rating_transport=httpx.ASGITransport(app=rating),
    )
    bots = Bots(bus, settings.table_engine_shards, seed)
    for app in (wallet, rating, engine, director):
        # The relays poll more often than in production: a hand is a dozen hops from outbox to outbox.
        app.state.runtime.relay.idle_interval = RELAY_POLL_SECONDS
    async with (
        running_app(wallet, "http://wallet") as wallet_http,
        rating.router.lifespan_context(rating),
        engine.router.lifespan_context(engine),
        running_app(director, "http://director") as director_http,
    ):
        await asyncio.wait_for(engine.state.services.host.ready.wait(), START_SECONDS)
        await bus.subscribe("test-bots", [table_bus.ActionRequested.TYPE], bots.act)
        yield Platform(bus, clock, director, director_http, wallet_http, bots)
    await bus.close()
