"""Planned wallet transfers of a draw (wallet_transfers): written before they are made, marked when answered.

A wallet call is idempotent by its key only if a retry sends the same request. So the batches of payments
that go in one call are fixed when the plan is written (`batch_no`), and each call — its key (`wallet_key`),
derived from the batch, and its request, the batch's payments in plan order — is recorded with the plan as
one of the kit's outgoing calls (platform_kit.outgoing_calls): after a crash, the batch is resent identically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from platform_kit.outgoing_calls import CallTable, NewCall
from platform_kit.wallet_operations import WalletRequest
from sqlalchemy import Row, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import outgoing_calls, wallet_transfers
from totalizator.adapters.wallet_client import payments_request, transfer_request
from totalizator.service.wallet import Payment, PaymentKind, TransferKind

#: The draws' wallet calls: a batch of payments or an organizer's transfer each.
CALLS = CallTable(outgoing_calls)
WALLET = "wallet"


_PAYMENT_KINDS = frozenset(PaymentKind)


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
    key: str  # the transfer's own key, and the wallet's Idempotency-Key when it makes a call of its own
    player_id: str | None = None
    coupon_id: str | None = None
    batch_no: int | None = None  # payments made in one wallet call share it


def batch_key(draw_id: str, kind: str, batch_no: int) -> str:
    """The Idempotency-Key of a batch's wallet call. Never change it: a batch unanswered before a restart is
    resent under it."""
    return f"totalizator:{draw_id}:{kind}:batch:{batch_no}"


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
    batch_no: int | None
    status: TransferStatus
    operation_id: int | None
    error: str | None

    @property
    def wallet_key(self) -> str:
        """The Idempotency-Key of the wallet call that makes it: its batch's, or its own."""
        return self.key if self.batch_no is None else batch_key(self.draw_id, self.kind, self.batch_no)

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
            batch_no=row.batch_no,
            status=TransferStatus(row.status),
            operation_id=row.operation_id,
            error=row.error,
        )


async def plan(
    session: AsyncSession, draw_id: str, transfers: Sequence[PlannedTransfer], *, at: datetime, chunk: int = 5000
) -> None:
    """The transfers, and the wallet calls that make them, written together."""
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
            "batch_no": t.batch_no,
            "status": str(TransferStatus.PENDING),
        }
        for t in transfers
    ]
    for start in range(0, len(rows), chunk):
        await session.execute(insert(wallet_transfers), rows[start : start + chunk])
    await CALLS.record_all(session, wallet_calls(draw_id, transfers), at)


def wallet_calls(draw_id: str, transfers: Sequence[PlannedTransfer]) -> list[NewCall]:
    """One call per batch (its payments in plan order) and per transfer planned alone."""
    calls: dict[str, list[PlannedTransfer]] = {}
    for t in transfers:
        key = t.key if t.batch_no is None else batch_key(draw_id, t.kind, t.batch_no)
        calls.setdefault(key, []).append(t)
    return [NewCall(key, WALLET, made[0].kind, _request(draw_id, made), group=draw_id) for key, made in calls.items()]


def _request(draw_id: str, made: list[PlannedTransfer]) -> WalletRequest:
    first = made[0]
    if first.kind in _PAYMENT_KINDS:
        payments = [Payment(t.player_id or "", t.amount) for t in made]
        return payments_request(draw_id, PaymentKind(first.kind), first.currency, payments)
    (transfer,) = made
    return transfer_request(draw_id, TransferKind(transfer.kind), transfer.currency, transfer.amount)


async def last_batch_no(session: AsyncSession, draw_id: str) -> int:
    """The highest batch number of the draw's transfers, 0 if none: a new plan numbers its batches after it."""
    query = select(func.max(wallet_transfers.c.batch_no)).where(wallet_transfers.c.draw_id == draw_id)
    return int(await session.scalar(query) or 0)


@dataclass(frozen=True)
class Window:
    """The next wallet calls to make: whole calls of the draw's first unfinished phase."""

    phase: int
    #: A transfer of the phase was refused: the draw waits for an operator.
    refused: bool
    transfers: list[TransferRecord]


async def next_window(session: AsyncSession, draw_id: str, calls: int) -> Window | None:
    """Up to `calls` wallet calls' worth of unfinished transfers of the draw's first unfinished phase, each call
    whole (every row of a batch, so that its request is the same whenever it is sent), in plan order; None
    when every transfer is done. Memory stays bounded whatever the number of coupons."""
    unfinished = (wallet_transfers.c.draw_id == draw_id, wallet_transfers.c.status != str(TransferStatus.DONE))
    phase = await session.scalar(select(func.min(wallet_transfers.c.phase)).where(*unfinished))
    if phase is None:
        return None
    in_phase = (*unfinished, wallet_transfers.c.phase == phase)
    refused = select(wallet_transfers.c.id).where(*in_phase, wallet_transfers.c.status == str(TransferStatus.REFUSED))
    if await session.scalar(refused.limit(1)) is not None:
        return Window(phase, True, [])
    batches = (
        select(wallet_transfers.c.batch_no)
        .where(*in_phase, wallet_transfers.c.batch_no.is_not(None))
        .distinct()
        .order_by(wallet_transfers.c.batch_no)
        .limit(calls)
    )
    singles = (
        select(wallet_transfers.c.id)
        .where(*in_phase, wallet_transfers.c.batch_no.is_(None))
        .order_by(wallet_transfers.c.id)
        .limit(calls)
    )
    query = (
        select(wallet_transfers)
        .where(
            *in_phase,
            or_(
                wallet_transfers.c.batch_no.in_(batches.scalar_subquery()),
                wallet_transfers.c.id.in_(singles.scalar_subquery()),
            ),
        )
        .order_by(wallet_transfers.c.id)
    )
    return Window(phase, False, [TransferRecord.of(row) for row in (await session.execute(query)).all()])


async def of_draw(session: AsyncSession, draw_id: str) -> list[TransferRecord]:
    query = select(wallet_transfers).where(wallet_transfers.c.draw_id == draw_id).order_by(wallet_transfers.c.id)
    return [TransferRecord.of(row) for row in (await session.execute(query)).all()]


async def mark_call(
    session: AsyncSession,
    transfer: TransferRecord,
    status: TransferStatus,
    *,
    at: datetime,
    operation_id: int | None = None,
    error: str | None = None,
) -> None:
    """Record the wallet's answer to the call that made `transfer`: for it and every transfer of its batch."""
    made_together = (
        wallet_transfers.c.id == transfer.id
        if transfer.batch_no is None
        else (wallet_transfers.c.draw_id == transfer.draw_id) & (wallet_transfers.c.batch_no == transfer.batch_no)
    )
    await session.execute(
        update(wallet_transfers)
        .where(made_together)
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
