"""Awards (the append-only history) and rating summaries (its fold, one row per player who ever played)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from platform_kit.sql import chunks, upsert
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.orm import awards, rating_summaries
from rating.domain import Award, RatingSummary


@dataclass(frozen=True, slots=True)
class RecordedAward:
    """An award with where it came from, for the player's history."""

    award: Award
    position: int
    tied_positions: int
    pool_cents: int


_AWARD_COLUMNS = (awards.c.player_id, awards.c.tournament_id, awards.c.day, awards.c.points)


async def awards_of_tournament(session: AsyncSession, tournament_id: str) -> dict[str, Award]:
    """The awards already recorded for a tournament, by player."""
    rows = await session.execute(select(*_AWARD_COLUMNS).where(awards.c.tournament_id == tournament_id))
    return {player_id: Award(player_id, tournament_id, day, points) for player_id, _, day, points in rows}


async def insert_awards(session: AsyncSession, recorded: Sequence[RecordedAward], now: datetime) -> None:
    rows = [
        {
            "player_id": r.award.player_id,
            "tournament_id": r.award.tournament_id,
            "day": r.award.day,
            "points": r.award.points,
            "position": r.position,
            "tied_positions": r.tied_positions,
            "pool_cents": r.pool_cents,
            "recorded_at": now,
        }
        for r in recorded
    ]
    for chunk in chunks(rows):
        await session.execute(awards.insert(), chunk)


async def history_of(session: AsyncSession, player_id: str) -> list[RecordedAward]:
    """The player's awards, oldest first."""
    rows = await session.execute(
        select(*_AWARD_COLUMNS, awards.c.position, awards.c.tied_positions, awards.c.pool_cents)
        .where(awards.c.player_id == player_id)
        .order_by(awards.c.day, awards.c.tournament_id)
    )
    return [RecordedAward(Award(p, t, d, points), pos, tied, pool) for p, t, d, points, pos, tied, pool in rows]


async def awards_of_players(session: AsyncSession, player_ids: Iterable[str]) -> dict[str, list[Award]]:
    found: dict[str, list[Award]] = defaultdict(list)
    for chunk in chunks(sorted(set(player_ids))):
        rows = await session.execute(select(*_AWARD_COLUMNS).where(awards.c.player_id.in_(chunk)))
        for player_id, tournament_id, day, points in rows:
            found[player_id].append(Award(player_id, tournament_id, day, points))
    return found


async def summaries_of(session: AsyncSession, player_ids: Iterable[str]) -> dict[str, RatingSummary]:
    found: dict[str, RatingSummary] = {}
    for chunk in chunks(sorted(set(player_ids))):
        rows = await session.execute(select(rating_summaries).where(rating_summaries.c.player_id.in_(chunk)))
        found.update((player_id, RatingSummary(player_id, last_day, value)) for player_id, last_day, value in rows)
    return found


async def all_summaries(session: AsyncSession) -> list[RatingSummary]:
    rows = await session.execute(select(rating_summaries))
    return [RatingSummary(player_id, last_day, value) for player_id, last_day, value in rows]


async def save_summaries(session: AsyncSession, summaries: Iterable[RatingSummary]) -> None:
    rows = [{"player_id": s.player_id, "last_day": s.last_day, "value": s.value} for s in summaries]
    await upsert(session, rating_summaries, rows, keys=("player_id",))
