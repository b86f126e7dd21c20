"""Deposit limits a player sets on themself (responsible gaming; docs/player-protection.md). Pure rules, no I/O.

A player may cap what they deposit per day, week and month, in one currency. The windows roll: "day" is the
24 hours before the deposit, "week" 7 days, "month" 30 days, so no calendar boundary lets a player deposit two
limits' worth in a few minutes. Invariants:
- a stricter limit (lower, or a first one) takes effect at once, and cancels a raise still cooling off;
- a looser one (higher, or none) takes effect only after the cooling-off period; until then the current
  limit holds;
- a deposit is admitted only if, for every window with a limit in force, what was deposited in it plus the
  deposit stays within the limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from wallet.domain.errors import Refusal


class Period(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"

    @property
    def window(self) -> timedelta:
        return _WINDOWS[self]


_WINDOWS = {Period.DAY: timedelta(days=1), Period.WEEK: timedelta(days=7), Period.MONTH: timedelta(days=30)}


class DepositLimitExceeded(Refusal):
    """The deposit would take the player past a limit they set: `remaining` is what they may still deposit."""

    code = "deposit_limit_exceeded"


@dataclass(frozen=True, slots=True)
class PeriodLimit:
    """One window's limit: `amount` in force now (None: no limit) and a looser one waiting for its date."""

    amount: int | None = None
    pending_amount: int | None = None
    pending_from: datetime | None = None  # None: nothing pending

    def in_force_at(self, at: datetime) -> int | None:
        if self.pending_from is not None and at >= self.pending_from:
            return self.pending_amount
        return self.amount

    def settled_at(self, at: datetime) -> PeriodLimit:
        """The same limit with a raise whose cooling-off is over folded into `amount`."""
        if self.pending_from is not None and at >= self.pending_from:
            return PeriodLimit(self.pending_amount)
        return self


NO_LIMIT = PeriodLimit()


def is_stricter(new: int | None, old: int | None) -> bool:
    """Stricter means the player may deposit less: any limit is stricter than none."""
    if new is None:
        return False
    return old is None or new < old


@dataclass(frozen=True, slots=True)
class Change:
    """What a request did to one window: the limit afterwards and when the requested amount applies."""

    limit: PeriodLimit
    previous: int | None
    requested: int | None
    effective_from: datetime


def change(current: PeriodLimit, requested: int | None, now: datetime, cooling_off: timedelta) -> Change | None:
    """Apply a request for one window; None when it changes nothing (same amount, nothing pending)."""
    settled = current.settled_at(now)
    if requested == settled.amount:
        if settled.pending_from is None:
            return None
        return Change(PeriodLimit(settled.amount), settled.amount, requested, now)  # keeping it drops the raise
    if is_stricter(requested, settled.amount):
        return Change(PeriodLimit(requested), settled.amount, requested, now)
    effective = now + cooling_off
    return Change(PeriodLimit(settled.amount, requested, effective), settled.amount, requested, effective)


def refusal(
    limits: Mapping[Period, PeriodLimit], deposited: Mapping[Period, int], amount: int, at: datetime
) -> DepositLimitExceeded | None:
    """Why a deposit of `amount` is refused, or None. `deposited`: what was deposited in each window already.
    The tightest window speaks: its `remaining` is what the player may deposit now."""
    worst: tuple[int, Period, int] | None = None
    for period, limit in limits.items():
        cap = limit.in_force_at(at)
        if cap is None:
            continue
        remaining = max(0, cap - deposited.get(period, 0))
        if worst is None or remaining < worst[0]:
            worst = (remaining, period, cap)
    if worst is None or amount <= worst[0]:
        return None
    remaining, period, cap = worst
    return DepositLimitExceeded(
        f"This deposit would exceed the player's {period.value} deposit limit; they may deposit {remaining} more "
        f"now. / Il deposito supera il limite {_ITALIAN[period]} scelto dal giocatore; restano {remaining}.",
        period=period.value,
        limit=cap,
        remaining=remaining,
    )


_ITALIAN = {Period.DAY: "giornaliero", Period.WEEK: "settimanale", Period.MONTH: "mensile"}
