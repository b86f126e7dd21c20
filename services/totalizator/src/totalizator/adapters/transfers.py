"""Planned wallet calls of a draw (wallet_transfers): written before they are made, marked when answered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Row, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import wallet_transfers


class TransferStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    REFUSED = "refused"  # the wallet said no: an operator must look (the draw stops before the next phase)


@dataclass(frozen=True, slots=True)
class PlannedTransfer:
    phase: int
    kind: str
    currency: str
    amount: int
    key: str  # the wallet's Idempotency-Key
    player_id: str | None = None
    coupon_id: str | None = None


@dataclass(frozen=True, slots=True)
class TransferRecord:
    id: int
    draw_id: str
    phase: int
    kind: str
    currency: str
    amount: int
    player_id: str | None
    coupon_id: str | None
    key: str
    status: TransferStatus
    operation_id: int | None
    error: str | None

    @classmethod
    def of(cls, row: Row[Any]) -> TransferRecord:
        return cls(
            id=row.id,
            draw_id=row.draw_id,
            phase=row.phase,
            kind=row.kind,
            currency=row.currency,
            amount=row.amount,
            player_id=row.player_id,
            coupon_id=row.coupon_id,
            key=row.idempotency_key,
            status=TransferStatus(row.status),
            operation_id=row.operation_id,
            error=row.error,
        )


async def plan(session: AsyncSession, draw_id: str, transfers: Sequence[PlannedTransfer], *, chunk: int = 5000) -> None:
    rows = [
        {
            "draw_id": draw_id,
            "phase": t.phase,
            "kind": t.kind,
            "currency": t.currency,
            "amount": t.amount,
            "player_id": t.player_id,
            "coupon_id": t.coupon_id,
            "idempotency_key": t.key,
            "status": str(TransferStatus.PENDING),
        }
        for t in transfers
    ]
    for start in range(0, len(rows), chunk):
        await session.execute(insert(wallet_transfers), rows[start : start + chunk])


async def unfinished(session: AsyncSession, draw_id: str) -> list[TransferRecord]:
    """Pending and refused transfers of a draw, by phase."""
    query = (
        select(wallet_transfers)
        .where(
            wallet_transfers.c.draw_id == draw_id,
            wallet_transfers.c.status != str(TransferStatus.DONE),
        )
        .order_by(wallet_transfers.c.phase, wallet_transfers.c.id)
    )
    return [TransferRecord.of(row) for row in (await session.execute(query)).all()]


async def of_draw(session: AsyncSession, draw_id: str) -> list[TransferRecord]:
    query = select(wallet_transfers).where(wallet_transfers.c.draw_id == draw_id).order_by(wallet_transfers.c.id)
    return [TransferRecord.of(row) for row in (await session.execute(query)).all()]


async def mark(
    session: AsyncSession,
    transfer_id: int,
    status: TransferStatus,
    *,
    at: datetime,
    operation_id: int | None = None,
    error: str | None = None,
) -> None:
    await session.execute(
        update(wallet_transfers)
        .where(wallet_transfers.c.id == transfer_id)
        .values(status=str(status), operation_id=operation_id, error=error, done_at=at)
    )


async def progress(session: AsyncSession, draw_id: str) -> dict[TransferStatus, int]:
    query = (
        select(wallet_transfers.c.status, func.count())
        .where(wallet_transfers.c.draw_id == draw_id)
        .group_by(wallet_transfers.c.status)
    )
    counts = dict.fromkeys(TransferStatus, 0)
    for status, count in (await session.execute(query)).all():
        counts[TransferStatus(status)] = int(count)
    return counts


async def draws_with_pending(session: AsyncSession) -> list[str]:
    query = (
        select(wallet_transfers.c.draw_id).where(wallet_transfers.c.status == str(TransferStatus.PENDING)).distinct()
    )
    return list((await session.scalars(query)).all())
