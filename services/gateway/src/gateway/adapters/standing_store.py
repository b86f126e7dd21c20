"""What decides whether a player may play, read in one round trip: the restrictions mirrored from the sanctions
registry (P-12.5) and the protection settings (issue 17). Every play request — each action at a table — asks;
as two statements it paid a second round trip to the database, which on this platform's machines costs more
CPU than the query itself (issue 14)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from gateway.adapters.orm import player_protection, player_restrictions, players
from gateway.adapters.protection_store import ProtectionRecord, record_of
from gateway.domain.restrictions import Restriction, RestrictionKind


@dataclass(frozen=True, slots=True)
class PlayStanding:
    restrictions: list[Restriction]
    protection: ProtectionRecord


_restriction = player_restrictions.c
# One row per restriction (protection columns repeated), or one row of NULLs beyond the player's id when there is
# neither; built once, the player's id bound per call.
_STANDING = (
    select(
        *player_protection.c,
        _restriction.kind.label("restriction_kind"),
        _restriction.until.label("restriction_until"),
        _restriction.reason.label("restriction_reason"),
    )
    .select_from(
        players.outerjoin(player_protection, player_protection.c.player_id == players.c.id).outerjoin(
            player_restrictions, _restriction.player_id == players.c.id
        )
    )
    .where(players.c.id == bindparam("player_id"))
)


async def play_standing(connection: AsyncConnection, player_id: str) -> PlayStanding:
    rows = (await connection.execute(_STANDING, {"player_id": player_id})).mappings().all()
    restrictions = [
        Restriction(RestrictionKind(row["restriction_kind"]), row["restriction_until"], row["restriction_reason"])
        for row in rows
        if row["restriction_kind"] is not None
    ]
    return PlayStanding(restrictions, record_of(player_id, rows[0] if rows else None))
