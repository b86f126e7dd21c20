"""Running the rating service in tests: the app on a database, the in-memory bus and a frozen clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from typing import Any

import httpx
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events.base import Event
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.tournament import RankedPlayer, TournamentFinished
from platform_kit.testing import eventually, running_app
from rating.app import create_app
from rating.settings import Settings

TOKEN = "test-internal-token"
# 10:00 in Rome on 2 March 2025: the day in progress is 2 March, the last closed day 1 March.
NOW = datetime(2025, 3, 2, 9, 0, tzinfo=UTC)
TODAY = date(2025, 3, 2)
YESTERDAY = date(2025, 3, 1)


class Service:
    def __init__(self, bus: InMemoryBus, clock: FrozenClock, http: httpx.AsyncClient, app: Any) -> None:
        self.bus = bus
        self.clock = clock
        self.http = http
        self.runtime = app.state.runtime

    async def publish(self, event: Event, *, message_id: str | None = None) -> Envelope:
        """Deliver `event` to the service as another service would, and wait until it is applied."""
        envelope = Envelope.wrap(event, producer="test", message_id=message_id)
        await self.deliver(envelope)
        return envelope

    async def deliver(self, envelope: Envelope) -> None:
        await self.bus.publish(envelope.outgoing())
        await self.settle()

    async def settle(self) -> None:
        """Consumers idle and the outbox relayed: what the service published is in `bus.published`."""
        await self.bus.drain()
        await self.runtime.relay.flush()

    async def published(self, event_type: str) -> list[Any]:
        await self.settle()
        return [envelope.event() for key, envelope in self.bus.published if key == event_type]

    def dead_letters(self) -> list[Envelope]:
        return self.bus.dead_letters("rating")

    async def close_day(self, day: date) -> dict[str, Any]:
        response = await self.http.post("/internal/v1/jobs/tiers", json={"day": day.isoformat()})
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def register(self, player_id: str, nickname: str | None = None, concessionaire: str = "room-a") -> None:
        await self.publish(
            PlayerRegistered(
                player_id=player_id,
                nickname=nickname or f"nick-{player_id}",
                concessionaire_id=concessionaire,
                date_of_birth=date(1990, 1, 1),
                registered_at=NOW,
            )
        )


def finished(
    tournament_id: str,
    ranking: Sequence[str | tuple[str, int]],
    *,
    pool_cents: int = 10_000,
    overlay_cents: int = 0,
    at: datetime = datetime(2025, 3, 1, 21, 0, tzinfo=UTC),
) -> TournamentFinished:
    """A finished tournament; players given alone take positions 1, 2, 3… in order, (player, position) pairs
    give ties."""
    ranked = [
        RankedPlayer(player_id=p, position=i + 1, prize_cents=0)
        if isinstance(p, str)
        else RankedPlayer(player_id=p[0], position=p[1], prize_cents=0)
        for i, p in enumerate(ranking)
    ]
    return TournamentFinished(
        tournament_id=tournament_id,
        kind="scheduled",
        currency="EUR",
        finished_at=at.isoformat(),
        entrants=len(ranked),
        prize_pool_cents=pool_cents + overlay_cents,
        prize_pool_from_entries_cents=pool_cents,
        guarantee_overlay_cents=overlay_cents,
        ranking=ranked,
    )


def admin() -> dict[str, str]:
    return {"X-Principal-Role": "admin", "X-Principal-Id": "admin-1"}


def operator(concessionaire: str = "room-a", staff_id: str = "op-1") -> dict[str, str]:
    return {"X-Principal-Role": "operator", "X-Principal-Id": staff_id, "X-Concessionaire-Id": concessionaire}


def player(player_id: str, concessionaire: str = "room-a") -> dict[str, str]:
    return {"X-Principal-Role": "player", "X-Principal-Id": player_id, "X-Concessionaire-Id": concessionaire}


@asynccontextmanager
async def running_service(database_url: str, *, now: datetime = NOW, **settings: Any) -> AsyncIterator[Service]:
    """The service started (migrations, consumers, relay, jobs); its start-up tier run has closed yesterday."""
    bus, clock = InMemoryBus(), FrozenClock(now)
    options: dict[str, Any] = {"tier_job_interval_seconds": 3600, "sanction_expiry_interval_seconds": 3600}
    app = create_app(
        Settings(database_url=database_url, internal_token=TOKEN, **(options | settings)), bus=bus, clock=clock
    )
    async with running_app(app, "http://rating", headers={"X-Internal-Token": TOKEN}) as http:

        async def started() -> object:
            return (await http.get("/v1/leaderboard")).json()["day"]

        await eventually(started)
        yield Service(bus, clock, http, app)
