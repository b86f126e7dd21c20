"""The wallet's composition root: its use cases wired together over one runtime, what the API (at
`app.state.services`) and the background tasks use. Every service has this shape: `bootstrap.build() -> Services`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from platform_kit.clock import Clock
from platform_kit.key_retention import KeyRetention
from platform_kit.runtime import ServiceRuntime

from wallet.adapters.orm import idempotency_keys
from wallet.service.deposit_limits import DepositLimits
from wallet.service.group_commit import GroupCommit
from wallet.service.holds import Holds
from wallet.service.idempotent import IdempotentExecutor
from wallet.service.ledger import Ledger
from wallet.service.money import Money
from wallet.service.posting_batches import PostingBatches
from wallet.service.queries import Queries
from wallet.service.reconciliation import Reconciler
from wallet.service.stake_batches import StakeBatches
from wallet.settings import Settings


@dataclass(frozen=True)
class Services:
    runtime: ServiceRuntime
    money: Money
    deposit_limits: DepositLimits
    holds: Holds
    queries: Queries
    reconciler: Reconciler
    executor: IdempotentExecutor
    stake_batches: StakeBatches
    group_commit: GroupCommit
    key_retention: KeyRetention
    default_hold_ttl: timedelta


def build(runtime: ServiceRuntime, settings: Settings, clock: Clock) -> Services:
    ledger = Ledger(runtime.outbox, clock)
    deposit_limits = DepositLimits(clock, timedelta(hours=settings.deposit_limit_cooling_off_hours))
    executor = IdempotentExecutor(runtime.units, clock, runtime.registry)
    postings = PostingBatches(runtime.units, ledger, executor)
    services = Services(
        runtime=runtime,
        money=Money(ledger, deposit_limits),
        deposit_limits=deposit_limits,
        holds=Holds(ledger, runtime.units),
        queries=Queries(ledger),
        reconciler=Reconciler(runtime.units, clock, runtime.registry),
        executor=executor,
        stake_batches=StakeBatches(postings),
        group_commit=GroupCommit(postings, executor, runtime.registry, max_size=settings.group_commit_max_size),
        key_retention=KeyRetention.start(runtime, idempotency_keys, clock, metric_prefix="wallet"),
        default_hold_ttl=timedelta(seconds=settings.hold_ttl_seconds),
    )

    async def sweep_holds() -> None:
        await services.holds.sweep_forever(settings.hold_sweep_interval_seconds)

    async def reconcile() -> None:
        await services.reconciler.check_forever(settings.reconciliation_interval_seconds)

    runtime.in_background(sweep_holds)
    runtime.in_background(reconcile)
    return services
