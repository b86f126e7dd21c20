"""The player restrictions mirrored from the sanctions registry: one row per decision, keyed by its id."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters.orm import player_restrictions
from gateway.domain.restrictions import Restriction, RestrictionKind


async def put(
    session: AsyncSession, restriction_id: str, player_id: str, restriction: Restriction, now: datetime
) -> None:
    """Record (or replace) one decision. Delete + insert keeps it portable across SQLite and PostgreSQL."""
    await remove(session, restriction_id)
    await session.execute(
        player_restrictions.insert().values(
            id=restriction_id,
            player_id=player_id,
            kind=restriction.kind.value,
            until=restriction.until,
            reason=restriction.reason,
            updated_at=now,
        )
    )


async def remove(session: AsyncSession, restriction_id: str) -> None:
    await session.execute(delete(player_restrictions).where(player_restrictions.c.id == restriction_id))


async def for_player(session: AsyncSession, player_id: str) -> list[Restriction]:
    rows = await session.execute(
        select(player_restrictions.c.kind, player_restrictions.c.until, player_restrictions.c.reason).where(
            player_restrictions.c.player_id == player_id
        )
    )
    return [Restriction(RestrictionKind(kind), until, reason) for kind, until, reason in rows]
