"""The totalizator service's app factory: the composition root is `bootstrap.build`."""

import random
from pathlib import Path

from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.internal_client import InternalClient
from platform_kit.runtime import ServiceRuntime

from totalizator import bootstrap
from totalizator.adapters.orm import metadata
from totalizator.api import admin, coupons, public
from totalizator.service.wallet import WalletPort
from totalizator.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None,
    *,
    bus: Transport | None = None,
    clock: Clock | None = None,
    wallet: WalletPort | None = None,
    rng: random.Random | None = None,
    wallet_client: InternalClient | None = None,
) -> FastAPI:
    """`wallet_client`: the wallet's REST API (default: at settings.wallet_url); `wallet`: the stakes' port
    (default: over that client); `clock` and `rng` (coupon ids) are injected for tests."""
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    services = bootstrap.build(
        settings,
        runtime,
        clock=clock or SystemClock(),
        wallet=wallet,
        rng=rng or random.SystemRandom(),
        wallet_client=wallet_client,
    )
    app = create_service_app(
        runtime,
        title="Totalizator",
        description="Exact-score draws, coupons, FX rates, live statistics, settlement, jackpot and published bet "
        "files. Public routes are read-only; `/internal` routes carry `X-Internal-Token` (the gateway relays "
        "players' coupons with their `Idempotency-Key`, and staff calls with `X-Principal-Role`).",
        routers=[public.router, coupons.router, admin.router],
    )
    app.state.services = services
    return app
