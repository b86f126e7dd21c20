"""Tier days (the cutoffs of each closed day), the tier in force per player, and the public standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from platform_kit.sql import chunks, upsert
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.orm import player_tiers, players, standings, tier_days
from rating.domain import LeaderboardEntry, Tier, TierChange, TierCutoffs


async def latest_tier_day(session: AsyncSession) -> TierCutoffs | None:
    """The last day the tier job closed, with its cutoffs."""
    row = (
        await session.execute(
            select(tier_days.c.day, tier_days.c.active_count, tier_days.c.minimum_ratings)
            .order_by(tier_days.c.day.desc())
            .limit(1)
        )
    ).first()
    return None if row is None else TierCutoffs(row.day, row.active_count, tuple(row.minimum_ratings))


async def save_tier_day(session: AsyncSession, cutoffs: TierCutoffs, now: datetime) -> None:
    row = {
        "day": cutoffs.day,
        "active_count": cutoffs.active_count,
        "minimum_ratings": list(cutoffs.minimum_ratings),
        "computed_at": now,
    }
    await upsert(session, tier_days, [row], keys=("day",))


async def tiers_in_force(session: AsyncSession) -> dict[str, Tier]:
    rows = await session.execute(select(player_tiers.c.player_id, player_tiers.c.tier))
    return {player_id: Tier(tier) for player_id, tier in rows}


async def tier_in_force(session: AsyncSession, player_id: str) -> tuple[Tier, date | None]:
    """The player's tier and the day it took effect; a player never classified is ESORDIENTE (P-11.4)."""
    row = (
        await session.execute(
            select(player_tiers.c.tier, player_tiers.c.since_day).where(player_tiers.c.player_id == player_id)
        )
    ).first()
    return (Tier.ESORDIENTE, None) if row is None else (Tier(row.tier), row.since_day)


async def save_tier_changes(session: AsyncSession, changes: Sequence[TierChange], day: date) -> None:
    rows = [{"player_id": c.player_id, "tier": c.after.value, "since_day": day} for c in changes]
    await upsert(session, player_tiers, rows, keys=("player_id",))


async def replace_standings(session: AsyncSession, day: date, entries: Sequence[LeaderboardEntry]) -> None:
    """The standings of `day` replace whatever was there: only the last closed day is public."""
    await session.execute(delete(standings))
    rows = [
        {
            "day": day,
            "position": position,
            "rank": e.rank,
            "player_id": e.player_id,
            "rating": e.rating,
            "tier": e.tier.value,
        }
        for position, e in enumerate(entries, start=1)
    ]
    for chunk in chunks(rows):
        await session.execute(standings.insert(), chunk)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    nickname: str | None  # None until the gateway's registration event arrives
    rating: int
    tier: Tier


async def standings_between(session: AsyncSession, day: date, first: int, last: int) -> list[Standing]:
    """Positions `first`..`last` (from 1) of the standings of `day`, with nicknames and never player ids."""
    rows = await session.execute(
        select(standings.c.rank, players.c.nickname, standings.c.rating, standings.c.tier)
        .select_from(standings.outerjoin(players, players.c.player_id == standings.c.player_id))
        .where(standings.c.day == day, standings.c.position.between(first, last))
        .order_by(standings.c.position)
    )
    return [Standing(rank, nickname, rating, Tier(tier)) for rank, nickname, rating, tier in rows]


async def rank_of(session: AsyncSession, day: date, player_id: str) -> int | None:
    return (
        await session.execute(
            select(standings.c.rank).where(standings.c.day == day, standings.c.player_id == player_id)
        )
    ).scalar_one_or_none()
