"""Reconciliation: re-derive the ledger's invariants from its rows, expose them as metrics, and shout when
they break (a CRITICAL log every check while broken, one `wallet.reconciliation.failed` event per breakage)."""

from __future__ import annotations

import asyncio
import logging

from platform_kit.clock import Clock
from platform_kit.events.wallet import CurrencyImbalance, ReconciliationFailed
from platform_kit.unit_of_work import UnitsOfWork
from prometheus_client import CollectorRegistry, Counter, Gauge

from wallet.adapters import reconciliation as queries
from wallet.domain.reconciliation import Report, report

log = logging.getLogger(__name__)


class Reconciler:
    def __init__(self, units: UnitsOfWork, clock: Clock, registry: CollectorRegistry) -> None:
        self.units = units
        self.clock = clock
        self._was_ok = True
        self.ok = Gauge(
            "wallet_reconciliation_ok", "1 when the last reconciliation found the ledger sound", registry=registry
        )
        self.ok.set(1)
        self.sums = Gauge(
            "wallet_reconciliation_imbalance",
            "Sum of all account balances per currency (must be 0)",
            ["currency"],
            registry=registry,
        )
        self.drifted = Gauge(
            "wallet_drifted_accounts",
            "Accounts whose balance or held amount differs from their entries and holds",
            ["currency"],
            registry=registry,
        )
        self.failures = Counter(
            "wallet_reconciliation_failures", "Reconciliation checks that found the ledger unsound", registry=registry
        )

    async def check(self) -> Report:
        async with self.units.reading() as session:
            sums = await queries.sums_per_currency(session)
            drifts = await queries.drifted_accounts(session)
        result = report(self.clock.now(), sums, drifts)
        for currency in result.currencies:
            self.sums.labels(currency.currency).set(currency.sum_of_balances)
            self.drifted.labels(currency.currency).set(len(currency.drifts))
        self.ok.set(1 if result.ok else 0)
        if not result.ok:
            await self._alarm(result)
        self._was_ok = result.ok
        return result

    async def check_concessionaire(self, concessionaire_id: str) -> Report:
        """One concessionaire's view: per currency the whole ledger's sum of balances (the imbalance gauge: only
        the whole ledger sums to zero, not one concessionaire's share of it), and the count and drift of its own
        accounts and its players'. Read only: the metrics and the alarm are the network check's."""
        async with self.units.reading() as session:
            sums = await queries.sums_per_currency(session)
            counts = await queries.accounts_per_currency(session, concessionaire_id)
            drifts = await queries.drifted_accounts(session, concessionaire_id)
        scoped = [(currency, counts.get(currency, 0), total) for currency, _, total in sums]
        return report(self.clock.now(), scoped, drifts)

    async def check_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            await self.check()

    async def _alarm(self, result: Report) -> None:
        self.failures.inc()
        failures = [
            CurrencyImbalance(
                currency=check.currency,
                sum_of_balances=check.sum_of_balances,
                drifted_accounts=[drift.account for drift in check.drifts],
            )
            for check in result.failures
        ]
        log.critical(
            "LEDGER RECONCILIATION FAILED: balances do not sum to zero or differ from their entries",
            extra={"failures": [failure.model_dump() for failure in failures]},
        )
        if self._was_ok:
            async with self.units.unit() as uow:
                await uow.publish(ReconciliationFailed(checked_at=result.checked_at, failures=failures))
