"""The tournament-director service's app factory."""

import random
from pathlib import Path

import httpx
from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.runtime import ServiceRuntime

from tournament_director.adapters.orm import metadata
from tournament_director.api import internal, lobby_schedule, public
from tournament_director.bootstrap import build
from tournament_director.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None,
    *,
    bus: Transport | None = None,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    wallet_transport: httpx.AsyncBaseTransport | None = None,
    rating_transport: httpx.AsyncBaseTransport | None = None,
) -> FastAPI:
    """`rng` seats players (P-5): `random.SystemRandom()` unless a test injects one. The transports replace the
    network to the wallet and the rating service (tests run those apps in process)."""
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    services = build(
        runtime,
        settings,
        clock or SystemClock(),
        rng or random.SystemRandom(),
        wallet_transport=wallet_transport,
        rating_transport=rating_transport,
    )
    app = create_service_app(
        runtime,
        title="Tournament director",
        description="Tournament definitions, registrations, tickets, clocks, seating and balancing, eliminations, "
        "rankings, payouts and cancellations. `/v1/...` is public and read-only; `/internal/v1/...` needs "
        "`X-Internal-Token` and the caller the gateway authenticated: `X-Principal-Role` (player, partner, "
        "operator, admin), `X-Principal-Id`, `X-Concessionaire-Id`. Money-moving calls carry an `Idempotency-Key`.",
        routers=[public.router, internal.router, lobby_schedule.router],
    )
    app.state.services = services
    return app
