"""Coupons in the database.

A coupon is inserted `pending` when it is accepted (before closing, under the draw's lock), then resolved
`accepted` once the wallet has taken the stake, or `refused` if the wallet refused it. Only accepted coupons
count: in statistics, the final pool, the bet file and settlement.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from platform_kit.errors import NotFound
from sqlalchemy import Row, bindparam, func, insert, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import coupons, wallet_transfers
from totalizator.domain import Coupon


class CouponStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class CouponRecord:
    coupon_id: str
    draw_id: str
    player_id: str
    idempotency_key: str
    fingerprint: str
    currency: str
    amount: int
    bets: int
    picks: tuple[int, ...]
    status: CouponStatus
    accepted_at: datetime
    resolved_at: datetime | None
    wallet_operation_id: int | None
    refusal: dict[str, Any] | None

    def to_domain(self) -> Coupon:
        return Coupon(self.coupon_id, self.currency, self.amount, self.picks)

    @classmethod
    def of(cls, row: Row[Any]) -> CouponRecord:
        return cls(
            coupon_id=row.coupon_id,
            draw_id=row.draw_id,
            player_id=row.player_id,
            idempotency_key=row.idempotency_key,
            fingerprint=row.fingerprint,
            currency=row.currency,
            amount=row.amount,
            bets=row.bets,
            picks=parse_picks(row.picks),
            status=CouponStatus(row.status),
            accepted_at=row.accepted_at,
            resolved_at=row.resolved_at,
            wallet_operation_id=row.wallet_operation_id,
            refusal=None if row.refusal is None else json.loads(row.refusal),
        )


def picks_text(picks: Sequence[int]) -> str:
    return ",".join(map(str, picks))


def parse_picks(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split(",")))


def pending_record(
    coupon: Coupon,
    *,
    draw_id: str,
    player_id: str,
    idempotency_key: str,
    fingerprint: str,
    accepted_at: datetime,
) -> CouponRecord:
    """A coupon just accepted, its stake not yet taken."""
    return CouponRecord(
        coupon_id=coupon.coupon_id,
        draw_id=draw_id,
        player_id=player_id,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
        currency=coupon.currency,
        amount=coupon.amount,
        bets=coupon.bets,
        picks=coupon.picks,
        status=CouponStatus.PENDING,
        accepted_at=accepted_at,
        resolved_at=None,
        wallet_operation_id=None,
        refusal=None,
    )


async def insert_pending(session: AsyncSession, records: Sequence[CouponRecord]) -> None:
    """Pending coupons in one statement, in order (their row ids are the acceptance order)."""
    rows = [
        {
            "coupon_id": record.coupon_id,
            "draw_id": record.draw_id,
            "player_id": record.player_id,
            "idempotency_key": record.idempotency_key,
            "fingerprint": record.fingerprint,
            "currency": record.currency,
            "amount": record.amount,
            "bets": record.bets,
            "picks": picks_text(record.picks),
            "status": str(record.status),
            "accepted_at": record.accepted_at,
            "counted": False,
        }
        for record in records
    ]
    if rows:
        await session.execute(insert(coupons), rows)


async def by_key(session: AsyncSession, player_id: str, idempotency_key: str) -> CouponRecord | None:
    query = select(coupons).where(coupons.c.player_id == player_id, coupons.c.idempotency_key == idempotency_key)
    row = (await session.execute(query)).one_or_none()
    return None if row is None else CouponRecord.of(row)


async def by_keys(session: AsyncSession, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], CouponRecord]:
    """The coupons already placed under these (player, Idempotency-Key) pairs, in one statement."""
    if not keys:
        return {}
    query = select(coupons).where(tuple_(coupons.c.player_id, coupons.c.idempotency_key).in_(list(keys)))
    records = [CouponRecord.of(row) for row in (await session.execute(query)).all()]
    return {(record.player_id, record.idempotency_key): record for record in records}


async def by_id(session: AsyncSession, coupon_id: str) -> CouponRecord:
    row = (await session.execute(select(coupons).where(coupons.c.coupon_id == coupon_id))).one_or_none()
    if row is None:
        raise NotFound("coupon_not_found", f"There is no coupon {coupon_id!r}.", coupon_id=coupon_id)
    return CouponRecord.of(row)


async def of_player(
    session: AsyncSession, player_id: str, *, draw_id: str | None = None, limit: int = 100
) -> list[CouponRecord]:
    query = select(coupons).where(coupons.c.player_id == player_id)
    if draw_id is not None:
        query = query.where(coupons.c.draw_id == draw_id)
    query = query.order_by(coupons.c.id.desc()).limit(limit)
    return [CouponRecord.of(row) for row in (await session.execute(query)).all()]


@dataclass(frozen=True, slots=True)
class Resolution:
    """The wallet's answer for a pending coupon: `accepted` with its operation, or `refused` with its problem."""

    coupon_id: str
    status: CouponStatus
    at: datetime
    operation_id: int | None = None
    refusal: dict[str, Any] | None = None


async def resolve(session: AsyncSession, answers: Sequence[Resolution]) -> None:
    """Record the wallet's answers for pending coupons, in one statement (a coupon already resolved keeps its
    first answer). Rows in coupon order: groups written at once (`TOTALIZATOR_INTAKE_WRITERS`) that share coupons
    (a retry's answer beside the first) lock them in one order, never in a cycle."""
    statement = (
        update(coupons)
        .where(coupons.c.coupon_id == bindparam("b_coupon_id"), coupons.c.status == str(CouponStatus.PENDING))
        .values(
            status=bindparam("b_status"),
            resolved_at=bindparam("b_at"),
            wallet_operation_id=bindparam("b_operation_id"),
            refusal=bindparam("b_refusal"),
        )
    )
    rows = [
        {
            "b_coupon_id": answer.coupon_id,
            "b_status": str(answer.status),
            "b_at": answer.at,
            "b_operation_id": answer.operation_id,
            "b_refusal": None if answer.refusal is None else json.dumps(answer.refusal, ensure_ascii=False),
        }
        for answer in sorted(answers, key=lambda answer: answer.coupon_id)
    ]
    if rows:
        await session.execute(statement, rows)


async def accepted_with_players(session: AsyncSession, draw_id: str) -> list[tuple[Coupon, str]]:
    """A draw's paid-for coupons in acceptance order, each with its player."""
    query = (
        select(coupons.c.coupon_id, coupons.c.currency, coupons.c.amount, coupons.c.picks, coupons.c.player_id)
        .where(coupons.c.draw_id == draw_id, coupons.c.status == str(CouponStatus.ACCEPTED))
        .order_by(coupons.c.id)
    )
    result = await session.execute(query)
    return [
        (Coupon(coupon_id, currency, amount, parse_picks(picks)), player_id)
        for coupon_id, currency, amount, picks, player_id in result.all()
    ]


@dataclass(frozen=True, slots=True)
class CouponPayment:
    """An accepted coupon and what its draw's plan paid it (a payout or a refund; 0 and no operation if none)."""

    coupon_id: str
    player_id: str
    currency: str
    stake: int
    paid: int
    operation_id: int | None


async def payments(session: AsyncSession, draw_id: str) -> list[CouponPayment]:
    """Every accepted coupon of the draw in acceptance order, with its planned payment. Two scans of the draw's
    rows matched in memory, not a join: wallet_transfers has no index on coupon_id, and a join per coupon would
    be quadratic in a draw of tens of thousands. Only payments name a coupon in wallet_transfers, and a coupon is
    paid at most once (its transfer's key is the coupon's)."""
    paid_query = select(wallet_transfers.c.coupon_id, wallet_transfers.c.amount, wallet_transfers.c.operation_id).where(
        wallet_transfers.c.draw_id == draw_id, wallet_transfers.c.coupon_id.is_not(None)
    )
    paid = {coupon_id: (amount, operation) for coupon_id, amount, operation in (await session.execute(paid_query))}
    query = (
        select(coupons.c.coupon_id, coupons.c.player_id, coupons.c.currency, coupons.c.amount)
        .where(coupons.c.draw_id == draw_id, coupons.c.status == str(CouponStatus.ACCEPTED))
        .order_by(coupons.c.id)
    )
    return [
        CouponPayment(coupon_id, player_id, currency, stake, *paid.get(coupon_id, (0, None)))
        for coupon_id, player_id, currency, stake in await session.execute(query)
    ]


async def pending(session: AsyncSession, *, accepted_by: datetime, limit: int = 500) -> list[CouponRecord]:
    """Coupons accepted by `accepted_by` whose stake the wallet has not confirmed, oldest first."""
    query = (
        select(coupons)
        .where(coupons.c.status == str(CouponStatus.PENDING), coupons.c.accepted_at <= accepted_by)
        .order_by(coupons.c.id)
        .limit(limit)
    )
    return [CouponRecord.of(row) for row in (await session.execute(query)).all()]


async def count_taken(session: AsyncSession, draw_id: str) -> int:
    """Coupons accepted so far, their stakes confirmed or not (refused ones left out)."""
    query = select(func.count()).where(coupons.c.draw_id == draw_id, coupons.c.status != str(CouponStatus.REFUSED))
    return int(await session.scalar(query) or 0)


async def count_pending(session: AsyncSession, draw_id: str) -> int:
    query = select(func.count()).where(coupons.c.draw_id == draw_id, coupons.c.status == str(CouponStatus.PENDING))
    return int(await session.scalar(query) or 0)


async def uncounted(session: AsyncSession, draw_id: str, *, limit: int) -> list[tuple[int, Coupon]]:
    """Accepted coupons not yet in the live statistics, with their row ids."""
    query = (
        select(coupons.c.id, coupons.c.coupon_id, coupons.c.currency, coupons.c.amount, coupons.c.picks)
        .where(
            coupons.c.draw_id == draw_id,
            coupons.c.counted.is_(False),
            coupons.c.status == str(CouponStatus.ACCEPTED),
        )
        .order_by(coupons.c.id)
        .limit(limit)
    )
    result = await session.execute(query)
    return [
        (row_id, Coupon(coupon_id, currency, amount, parse_picks(picks)))
        for row_id, coupon_id, currency, amount, picks in result.all()
    ]


async def mark_counted(session: AsyncSession, row_ids: Sequence[int], *, chunk: int = 1000) -> None:
    for start in range(0, len(row_ids), chunk):
        part = row_ids[start : start + chunk]
        await session.execute(update(coupons).where(coupons.c.id.in_(part)).values(counted=True))


@dataclass(frozen=True, slots=True)
class CurrencyTotal:
    currency: str
    coupons: int
    bets: int
    amount: int


async def accepted_totals(session: AsyncSession, draw_id: str) -> list[CurrencyTotal]:
    query = (
        select(coupons.c.currency, func.count(), func.sum(coupons.c.bets), func.sum(coupons.c.amount))
        .where(coupons.c.draw_id == draw_id, coupons.c.status == str(CouponStatus.ACCEPTED))
        .group_by(coupons.c.currency)
    )
    return [
        CurrencyTotal(currency, int(count), int(bets or 0), int(amount or 0))
        for currency, count, bets, amount in (await session.execute(query)).all()
    ]
