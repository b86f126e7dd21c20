"""Open rebuy offers (P-4.2) and when each lapses."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import rebuy_offers


@dataclass(frozen=True)
class RebuyOffer:
    tournament_id: str
    player_id: str
    table_id: str
    expires_at: datetime


async def put(session: AsyncSession, offer: RebuyOffer) -> None:
    await remove(session, offer.tournament_id, offer.player_id)
    await session.execute(
        rebuy_offers.insert().values(
            tournament_id=offer.tournament_id,
            player_id=offer.player_id,
            table_id=offer.table_id,
            expires_at=offer.expires_at,
        )
    )


async def remove(session: AsyncSession, tournament_id: str, player_id: str) -> None:
    await session.execute(
        delete(rebuy_offers).where(rebuy_offers.c.tournament_id == tournament_id, rebuy_offers.c.player_id == player_id)
    )


async def remove_all(session: AsyncSession, tournament_id: str) -> None:
    await session.execute(delete(rebuy_offers).where(rebuy_offers.c.tournament_id == tournament_id))


async def lapsed(session: AsyncSession, now: datetime) -> list[RebuyOffer]:
    query = select(rebuy_offers).where(rebuy_offers.c.expires_at <= now).order_by(rebuy_offers.c.expires_at)
    return [RebuyOffer(**dict(row)) for row in (await session.execute(query)).mappings()]


async def of_tournament(session: AsyncSession, tournament_id: str) -> list[RebuyOffer]:
    query = select(rebuy_offers).where(rebuy_offers.c.tournament_id == tournament_id)
    return [RebuyOffer(**dict(row)) for row in (await session.execute(query)).mappings()]
