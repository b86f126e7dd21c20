"""Deposit limits and their history in the database, and what a player deposited in a window."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, func, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import deposit_limit_changes, deposit_limits, operations, transfers
from wallet.adapters.sql import as_int, for_update
from wallet.domain.deposit_limits import Change, Period, PeriodLimit
from wallet.domain.operations import OperationKind

# Built once with bound parameters (every deposit reads its player's limits): SQLAlchemy finds them compiled at
# once instead of building and hashing a new statement per call.
_LIMITS = select(
    deposit_limits.c.period,
    deposit_limits.c.amount,
    deposit_limits.c.pending_amount,
    deposit_limits.c.pending_from,
).where(deposit_limits.c.player_id == bindparam("player_id"), deposit_limits.c.currency == bindparam("currency"))
_LOCKED_LIMITS = _LIMITS.with_for_update()


async def limits_of(
    session: AsyncSession, player_id: str, currency: str, *, lock: bool = False
) -> dict[Period, PeriodLimit]:
    """The player's limits in `currency`; `lock` holds their rows until the commit (PostgreSQL), so deposits of
    one player with limits are checked one at a time."""
    query = _LOCKED_LIMITS if lock and for_update(session) else _LIMITS
    rows = await session.execute(query, {"player_id": player_id, "currency": currency})
    return {Period(period): PeriodLimit(amount, pending, since) for period, amount, pending, since in rows}


_WITH_LIMITS = (
    select(deposit_limits.c.player_id, deposit_limits.c.currency)
    .where(tuple_(deposit_limits.c.player_id, deposit_limits.c.currency).in_(bindparam("accounts", expanding=True)))
    .distinct()
)


async def with_limits(session: AsyncSession, accounts: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """Which of the (player, currency) pairs have limit rows (in force or not), in one statement, locking nothing."""
    wanted = sorted(set(accounts))
    if not wanted:
        return set()
    return {(row.player_id, row.currency) for row in await session.execute(_WITH_LIMITS, {"accounts": wanted})}


async def currencies_of(session: AsyncSession, player_id: str) -> list[str]:
    rows = await session.execute(
        select(deposit_limits.c.currency).where(deposit_limits.c.player_id == player_id).distinct()
    )
    return sorted(rows.scalars())


async def deposited_after(session: AsyncSession, player_id: str, currency: str, since: datetime) -> int:
    """What the player deposited in `currency` after `since` (reversed deposits still count: conservative)."""
    total = await session.execute(
        select(func.sum(transfers.c.amount))
        .select_from(operations.join(transfers, transfers.c.operation_id == operations.c.id))
        .where(
            operations.c.player_id == player_id,
            operations.c.kind == str(OperationKind.DEPOSIT),
            operations.c.currency == currency,
            operations.c.created_at > since,
        )
    )
    return as_int(total.scalar_one_or_none())


@dataclass(frozen=True)
class LimitChange:
    """One row of the history: a window's limit changed by someone, applying from `effective_from`."""

    currency: str
    period: Period
    previous_amount: int | None
    requested_amount: int | None
    changed_by: str
    changed_at: datetime
    effective_from: datetime


async def save(
    session: AsyncSession, player_id: str, currency: str, period: Period, done: Change, by: str, now: datetime
) -> None:
    """The window's new limit (delete + insert: portable) and its history row, in the caller's transaction."""
    await session.execute(
        delete(deposit_limits).where(
            deposit_limits.c.player_id == player_id,
            deposit_limits.c.currency == currency,
            deposit_limits.c.period == period.value,
        )
    )
    await session.execute(
        deposit_limits.insert().values(
            player_id=player_id,
            currency=currency,
            period=period.value,
            amount=done.limit.amount,
            pending_amount=done.limit.pending_amount,
            pending_from=done.limit.pending_from,
            updated_at=now,
        )
    )
    await session.execute(
        deposit_limit_changes.insert().values(
            player_id=player_id,
            currency=currency,
            period=period.value,
            previous_amount=done.previous,
            requested_amount=done.requested,
            changed_by=by,
            changed_at=now,
            effective_from=done.effective_from,
        )
    )


async def history(session: AsyncSession, player_id: str) -> list[LimitChange]:
    c = deposit_limit_changes.c
    rows = await session.execute(
        select(
            c.currency, c.period, c.previous_amount, c.requested_amount, c.changed_by, c.changed_at, c.effective_from
        )
        .where(c.player_id == player_id)
        .order_by(c.id.desc())
    )
    return [
        LimitChange(currency, Period(period), previous, requested, by, at, effective)
        for currency, period, previous, requested, by, at, effective in rows
    ]
