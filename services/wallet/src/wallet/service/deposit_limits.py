"""Deposit limits: setting them (stricter at once, looser after the cooling-off) and admitting deposits.

`admit` runs inside the deposit's own transaction, the idempotent executor's: a replayed deposit (same
Idempotency-Key) gets its first answer without running again, so it never counts twice; and the player's limit
rows are locked before the window is summed, so two concurrent deposits cannot both pass one limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from platform_kit.clock import Clock
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import deposit_limits as store
from wallet.domain.currencies import currency as known_currency
from wallet.domain.deposit_limits import Change, Period, PeriodLimit, change, refusal


@dataclass(frozen=True)
class WindowView:
    """One window as the player sees it now."""

    period: Period
    limit: PeriodLimit
    in_force: int | None
    deposited: int
    remaining: int | None  # None: no limit in force


class DepositLimits:
    def __init__(self, clock: Clock, cooling_off: timedelta) -> None:
        self.clock = clock
        self.cooling_off = cooling_off

    async def admit(self, session: AsyncSession, player_id: str, currency: str, amount: int) -> None:
        """Raise `DepositLimitExceeded` when the deposit would pass a limit in force."""
        now = self.clock.now()
        limits = await store.limits_of(session, player_id, currency, lock=True)
        capped = [period for period, limit in limits.items() if limit.in_force_at(now) is not None]
        if not capped:
            return
        deposited = {p: await store.deposited_after(session, player_id, currency, now - p.window) for p in capped}
        refused = refusal(limits, deposited, amount, now)
        if refused is not None:
            raise refused

    async def unlimited(self, session: AsyncSession, accounts: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which (player, currency) pairs have no limit set at all: a deposit of theirs `admit`s without a look at
        the window (the group commit posts those in its batch, service/money.py)."""
        wanted = set(accounts)
        return wanted - await store.with_limits(session, wanted)

    async def change(
        self, session: AsyncSession, player_id: str, currency: str, requested: Mapping[Period, int | None], by: str
    ) -> list[tuple[Period, Change]]:
        """Apply the requested amounts (None: no limit) per window; windows not named keep theirs."""
        known_currency(currency)
        now = self.clock.now()
        limits = await store.limits_of(session, player_id, currency, lock=True)
        done: list[tuple[Period, Change]] = []
        for period, amount in requested.items():
            changed = change(limits.get(period, PeriodLimit()), amount, now, self.cooling_off)
            if changed is not None:
                await store.save(session, player_id, currency, period, changed, by, now)
                done.append((period, changed))
        return done

    async def view(self, session: AsyncSession, player_id: str) -> dict[str, list[WindowView]]:
        """Every currency the player set limits in: each window's limit, what it holds and what remains."""
        now = self.clock.now()
        views: dict[str, list[WindowView]] = {}
        for currency in await store.currencies_of(session, player_id):
            limits = await store.limits_of(session, player_id, currency)
            views[currency] = [await self._window(session, player_id, currency, p, limits, now) for p in Period]
        return views

    async def _window(
        self,
        session: AsyncSession,
        player_id: str,
        currency: str,
        period: Period,
        limits: Mapping[Period, PeriodLimit],
        now: datetime,
    ) -> WindowView:
        limit = limits.get(period, PeriodLimit()).settled_at(now)
        deposited = await store.deposited_after(session, player_id, currency, now - period.window)
        cap = limit.in_force_at(now)
        remaining = None if cap is None else max(0, cap - deposited)
        return WindowView(period, limit, cap, deposited, remaining)
