"""Whether a player may play now — register, bet, act at a table: not banned (P-12.5), not self-excluded and,
in their own session, within its time limit (issue 17). Refused in that order, as 403s the client can show."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.standing_store import play_standing
from gateway.domain.restrictions import standing_at
from gateway.service.protection import raise_if_play_refused
from gateway.service.restrictions import raise_if_banned


async def refuse_unless_in_good_standing(
    connection: AsyncConnection, player_id: str, now: datetime, *, own_session: bool
) -> PlayerRecord | None:
    """The player, read with their standing (None: no such player, and nothing refused). `own_session` False:
    someone else (a partner, an operator) acts for the player, so the session limit, which is the player's own,
    does not apply. Through a read connection (`UnitsOfWork.read_connection`): every play request asks, each
    action at a table, each coupon."""
    standing = await play_standing(connection, player_id)
    raise_if_banned(standing_at(standing.restrictions, now))
    raise_if_play_refused(standing.protection, now, own_session=own_session)
    return standing.player
