"""The totalizator service's app factory."""

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.internal_client import InternalClient
from platform_kit.runtime import ServiceRuntime

from totalizator.adapters.orm import metadata
from totalizator.adapters.wallet_client import HttpWallet
from totalizator.api import admin, coupons, public
from totalizator.service.context import Context
from totalizator.service.draw_schedule import DrawSchedule
from totalizator.service.totalizator import Totalizator
from totalizator.service.wallet import Wallet
from totalizator.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None,
    *,
    bus: Transport | None = None,
    clock: Clock | None = None,
    wallet: Wallet | None = None,
    rng: random.Random | None = None,
) -> FastAPI:
    """`wallet`: the wallet port (default: the wallet's REST API at settings.wallet_url); `clock` and `rng`
    (coupon ids) are injected for tests."""
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    if wallet is None:
        http_wallet = HttpWallet(
            InternalClient(settings.wallet_url, settings.internal_token, timeout=settings.wallet_timeout_seconds)
        )
        runtime.in_background(_close_on_stop(http_wallet))
        wallet = http_wallet
    context = Context(
        db=runtime.db,
        outbox=runtime.outbox,
        clock=clock or SystemClock(),
        wallet=wallet,
        settings=settings,
        rng=rng or random.SystemRandom(),
    )
    totalizator = Totalizator.build(context)
    runtime.in_background(totalizator.clock.run)
    if settings.keeps_draw_open():
        runtime.in_background(DrawSchedule(context, totalizator.admin).run)
    app = create_service_app(
        runtime,
        title="Totalizator",
        description="Exact-score draws, coupons, FX rates, live statistics, settlement, jackpot and published bet "
        "files. Public routes are read-only; `/internal` routes carry `X-Internal-Token` (the gateway relays "
        "players' coupons with their `Idempotency-Key`, and staff calls with `X-Principal-Role`).",
        routers=[public.router, coupons.router, admin.router],
    )
    app.state.totalizator = totalizator
    return app


def _close_on_stop(wallet: HttpWallet) -> Callable[[], Awaitable[None]]:
    """A background task that holds the wallet's connection pool open until the service stops."""

    async def hold() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await wallet.close()

    return hold
