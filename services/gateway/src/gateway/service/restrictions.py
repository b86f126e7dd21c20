"""Player restrictions from the sanctions registry: recording them, and refusing what they forbid (P-12.5).

`set_player_restriction` / `lift_player_restriction` work inside the caller's transaction, so that a bus
consumer applies them exactly once together with its inbox record.
"""

from __future__ import annotations

from datetime import datetime

from platform_kit.errors import Forbidden
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import restriction_store, session_store
from gateway.domain.restrictions import Restriction, RestrictionKind, Standing, standing_at
from gateway.domain.roles import Role


class PlayerBanned(Forbidden):
    def __init__(self, standing: Standing) -> None:
        ban = standing.ban
        super().__init__(
            "player_banned",
            "This account is banned from the network.",
            until=ban.until.isoformat() if ban and ban.until else None,
            reason=ban.reason if ban else None,
        )


async def standing_of(session: AsyncSession, player_id: str, now: datetime) -> Standing:
    return standing_at(await restriction_store.for_player(session, player_id), now)


async def refuse_if_banned(session: AsyncSession, player_id: str, now: datetime) -> None:
    """P-12.5: a banned player may neither log in nor register."""
    raise_if_banned(await standing_of(session, player_id, now))


def raise_if_banned(standing: Standing) -> None:
    if not standing.may_log_in:
        raise PlayerBanned(standing)


async def set_player_restriction(
    session: AsyncSession,
    restriction_id: str,
    player_id: str,
    kind: RestrictionKind,
    until: datetime | None,
    reason: str,
    now: datetime,
) -> None:
    """Record a decision (a ban or chat ban, `until` None = permanent). A ban also ends the player's sessions,
    so that it takes effect within one access-token lifetime rather than at the next log-in."""
    await restriction_store.put(session, restriction_id, player_id, Restriction(kind, until, reason), now)
    if kind is RestrictionKind.BANNED:
        await session_store.revoke_subject(session, Role.PLAYER, player_id, now)


async def lift_player_restriction(session: AsyncSession, restriction_id: str) -> None:
    await restriction_store.remove(session, restriction_id)
