"""Players as the rating service knows them: the nickname the public sees (P-11.5) and their concessionaire,
both owned by the gateway and copied here from its `gateway.player.registered` events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from platform_kit.sql import upsert
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.orm import players


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    nickname: str
    concessionaire_id: str


async def save_player(session: AsyncSession, player: Player, registered_at: datetime) -> None:
    row = {
        "player_id": player.player_id,
        "nickname": player.nickname,
        "concessionaire_id": player.concessionaire_id,
        "registered_at": registered_at,
    }
    await upsert(session, players, [row], keys=("player_id",))


async def find_player(session: AsyncSession, player_id: str) -> Player | None:
    row = (
        await session.execute(
            select(players.c.player_id, players.c.nickname, players.c.concessionaire_id).where(
                players.c.player_id == player_id
            )
        )
    ).first()
    return None if row is None else Player(*row)


async def nicknames_of(session: AsyncSession, player_ids: Sequence[str]) -> dict[str, str]:
    """The nicknames of `player_ids` the service knows (a player not registered here yet is left out)."""
    if not player_ids:
        return {}
    query = select(players.c.player_id, players.c.nickname).where(players.c.player_id.in_(list(player_ids)))
    return {player_id: nickname for player_id, nickname in await session.execute(query)}
