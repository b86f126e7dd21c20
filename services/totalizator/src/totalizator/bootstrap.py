"""The totalizator's composition root: `build` makes its use cases from the settings and the runtime, wires
their background work (the draws' clock, the scheduled draw) and returns them as `Services`, which the app keeps
at `app.state.services` for the routes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from platform_kit.clock import Clock
from platform_kit.internal_client import InternalClient
from platform_kit.outgoing_calls import OutgoingCalls
from platform_kit.runtime import ServiceRuntime

from totalizator.adapters import transfers
from totalizator.adapters.wallet_client import HttpWallet
from totalizator.service.clock import DrawClock
from totalizator.service.context import Context
from totalizator.service.coupons import CouponIntake
from totalizator.service.draw_schedule import DrawSchedule
from totalizator.service.draws import DrawAdmin
from totalizator.service.publication import Publication
from totalizator.service.queries import Queries
from totalizator.service.settlement import Settlements
from totalizator.service.statistics import Statistics
from totalizator.service.transfers import TransferRunner
from totalizator.service.wallet import WalletPort
from totalizator.settings import Settings


@dataclass(frozen=True)
class Services:
    """The use cases the routes call."""

    context: Context
    admin: DrawAdmin
    intake: CouponIntake
    statistics: Statistics
    settlements: Settlements
    clock: DrawClock
    publication: Publication
    queries: Queries


def build(
    settings: Settings,
    runtime: ServiceRuntime,
    *,
    clock: Clock,
    wallet: WalletPort | None,
    rng: random.Random,
    wallet_client: InternalClient | None = None,
) -> Services:
    """`wallet_client`: the wallet's REST API, by default at settings.wallet_url; `wallet`: the stakes' port, by
    default over that client."""
    if wallet_client is None:
        wallet_client = InternalClient(
            settings.wallet_url, settings.internal_token, timeout=settings.wallet_timeout_seconds
        )
        runtime.in_background(_close_on_stop(wallet_client))
    calls = OutgoingCalls(
        transfers.CALLS,
        {transfers.WALLET: wallet_client},
        unit=runtime.units.unit,
        reads=runtime.units.reading,
        now=clock.now,
    )
    context = Context(
        db=runtime.db,
        outbox=runtime.outbox,
        clock=clock,
        wallet=wallet or HttpWallet(wallet_client),
        calls=calls,
        settings=settings,
        rng=rng,
    )
    runner = TransferRunner(context)
    statistics = Statistics(context)
    intake = CouponIntake(context)
    settlements = Settlements(context, runner)
    services = Services(
        context=context,
        admin=DrawAdmin(context, runner),
        intake=intake,
        statistics=statistics,
        settlements=settlements,
        clock=DrawClock(context, statistics, intake, settlements),
        publication=Publication(context),
        queries=Queries(context),
    )
    runtime.in_background(services.clock.run)
    if settings.keeps_draw_open():
        runtime.in_background(DrawSchedule(context, services.admin).run)
    return services


def _close_on_stop(client: InternalClient) -> Callable[[], Awaitable[None]]:
    """A background task that holds the wallet's connection pool open until the service stops."""

    async def hold() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await client.aclose()

    return hold
