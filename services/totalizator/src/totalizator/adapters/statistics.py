"""Live statistics of a draw, stored as the domain's exact snapshot (amounts as "numerator/denominator")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import draw_statistics
from totalizator.domain import Draw, LiveStatistics, StatisticsSnapshot


@dataclass(frozen=True, slots=True)
class StoredStatistics:
    snapshot: StatisticsSnapshot
    updated_at: datetime


def empty_snapshot(draw: Draw) -> StatisticsSnapshot:
    return LiveStatistics(draw).snapshot()


def snapshot_text(snapshot: StatisticsSnapshot) -> str:
    return json.dumps(
        {
            "coupons": snapshot.coupons,
            "bets": snapshot.bets,
            "pool_usd": str(snapshot.pool_usd),
            "bets_by_option": snapshot.bets_by_option,
            "amount_by_option": [[str(amount) for amount in row] for row in snapshot.amount_by_option],
        }
    )


def parse_snapshot(text: str) -> StatisticsSnapshot:
    data = json.loads(text)
    return StatisticsSnapshot(
        coupons=data["coupons"],
        bets=data["bets"],
        pool_usd=Fraction(data["pool_usd"]),
        bets_by_option=tuple(tuple(row) for row in data["bets_by_option"]),
        amount_by_option=tuple(tuple(Fraction(amount) for amount in row) for row in data["amount_by_option"]),
    )


async def create(session: AsyncSession, draw: Draw, *, at: datetime) -> None:
    await session.execute(
        insert(draw_statistics).values(
            draw_id=draw.draw_id, snapshot=snapshot_text(empty_snapshot(draw)), updated_at=at
        )
    )


async def get(session: AsyncSession, draw_id: str, *, for_update: bool = False) -> StoredStatistics | None:
    query = select(draw_statistics).where(draw_statistics.c.draw_id == draw_id)
    if for_update:
        query = query.with_for_update()
    row = (await session.execute(query)).one_or_none()
    return None if row is None else StoredStatistics(parse_snapshot(row.snapshot), row.updated_at)


async def save(session: AsyncSession, draw_id: str, snapshot: StatisticsSnapshot, *, at: datetime) -> None:
    await session.execute(
        update(draw_statistics)
        .where(draw_statistics.c.draw_id == draw_id)
        .values(snapshot=snapshot_text(snapshot), updated_at=at)
    )
