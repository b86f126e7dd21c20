"""Hold rows: created pending, then resolved once (posted, voided or expired)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import holds
from wallet.adapters.sql import for_update
from wallet.domain.errors import UnknownHold
from wallet.domain.holds import HoldStatus


@dataclass(frozen=True)
class HoldRow:
    id: int
    account_id: int
    destination_account_id: int
    amount: int
    status: HoldStatus
    reference: str | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None
    posted_amount: int | None
    operation_id: int | None


def _hold(row: Row[Any]) -> HoldRow:
    return HoldRow(
        id=row.id,
        account_id=row.account_id,
        destination_account_id=row.destination_account_id,
        amount=row.amount,
        status=HoldStatus(row.status),
        reference=row.reference,
        created_at=row.created_at,
        expires_at=row.expires_at,
        resolved_at=row.resolved_at,
        posted_amount=row.posted_amount,
        operation_id=row.operation_id,
    )


async def insert_hold(
    session: AsyncSession,
    *,
    account_id: int,
    destination_account_id: int,
    amount: int,
    reference: str | None,
    now: datetime,
    expires_at: datetime,
) -> HoldRow:
    row = (
        await session.execute(
            holds.insert()
            .values(
                account_id=account_id,
                destination_account_id=destination_account_id,
                amount=amount,
                status=str(HoldStatus.PENDING),
                reference=reference,
                created_at=now,
                expires_at=expires_at,
            )
            .returning(*holds.c)
        )
    ).one()
    return _hold(row)


async def load_hold(session: AsyncSession, hold_id: int, *, lock: bool = False) -> HoldRow:
    """With `lock`, the row stays locked until the transaction ends: post, void and the expiry sweep of one
    hold are serialised, and only the first resolves it."""
    query = select(holds).where(holds.c.id == hold_id)
    if lock and for_update(session):
        query = query.with_for_update()
    row = (await session.execute(query)).first()
    if row is None:
        raise UnknownHold(f"There is no hold {hold_id}.", hold_id=hold_id)
    return _hold(row)


async def resolve_hold(
    session: AsyncSession,
    hold_id: int,
    status: HoldStatus,
    now: datetime,
    *,
    posted_amount: int | None = None,
    operation_id: int | None = None,
) -> HoldRow | None:
    """Resolve a pending hold; None when it is no longer pending (someone resolved it first)."""
    row = (
        await session.execute(
            update(holds)
            .where(holds.c.id == hold_id, holds.c.status == str(HoldStatus.PENDING))
            .values(status=str(status), resolved_at=now, posted_amount=posted_amount, operation_id=operation_id)
            .returning(*holds.c)
        )
    ).first()
    return None if row is None else _hold(row)


async def due_for_expiry(session: AsyncSession, now: datetime, limit: int) -> list[HoldRow]:
    """Pending holds past their expiry, locked; on PostgreSQL rows another sweeper holds are skipped."""
    query = (
        select(holds)
        .where(holds.c.status == str(HoldStatus.PENDING), holds.c.expires_at <= now)
        .order_by(holds.c.id)
        .limit(limit)
    )
    if for_update(session):
        query = query.with_for_update(skip_locked=True)
    return [_hold(row) for row in await session.execute(query)]
