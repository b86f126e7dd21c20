"""What decides whether a player may play, read in one round trip with the player: the restrictions mirrored from
the sanctions registry (P-12.5) and the protection settings (issue 17). Every play request — each action at a
table, each coupon — asks; as separate statements it paid more round trips to the database, which on this
platform's machines cost more CPU than the queries themselves (issue 14)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from gateway.adapters.identity_store import PlayerRecord, player_columns
from gateway.adapters.orm import player_protection, player_restrictions, players
from gateway.adapters.protection_store import ProtectionRecord, record_of
from gateway.domain.restrictions import Restriction, RestrictionKind


@dataclass(frozen=True, slots=True)
class PlayStanding:
    player: PlayerRecord | None  # None: no such player (no restriction, the default protection)
    restrictions: list[Restriction]
    protection: ProtectionRecord


_restriction = player_restrictions.c
# One row per restriction (the player's and the protection columns repeated), or one row with NULLs for both when
# there is neither, or none when there is no such player; built once, the players' ids bound per call. The
# players' and the protection's column names do not clash; the restrictions' are labelled.
_STANDINGS = (
    select(
        *player_columns(),
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
    .where(players.c.id.in_(bindparam("player_ids", expanding=True)))
)


async def play_standings(connection: AsyncConnection, player_ids: Sequence[str]) -> dict[str, PlayStanding]:
    """Each of `player_ids`' standing, read by one statement. The list of ids is padded to a power of two (the
    last id repeated): an IN list is rendered per length, and each rendering is a statement PostgreSQL prepares
    anew, so a batch of 1 to 64 players is one of seven statements instead of one of 64."""
    wanted = list(dict.fromkeys(player_ids))
    padded = wanted + wanted[-1:] * (_power_of_two_from(len(wanted)) - len(wanted))
    rows = (await connection.execute(_STANDINGS, {"player_ids": padded})).mappings().all()
    by_player: dict[str, list[Any]] = {player_id: [] for player_id in wanted}
    for row in rows:
        by_player[row["id"]].append(row)
    return {player_id: _standing(player_id, own) for player_id, own in by_player.items()}


def _standing(player_id: str, rows: list[Any]) -> PlayStanding:
    if not rows:
        return PlayStanding(None, [], record_of(player_id, None))
    restrictions = [
        Restriction(RestrictionKind(row["restriction_kind"]), row["restriction_until"], row["restriction_reason"])
        for row in rows
        if row["restriction_kind"] is not None
    ]
    player = PlayerRecord(**{name: rows[0][name] for name in PlayerRecord.__slots__})
    return PlayStanding(player, restrictions, record_of(player_id, rows[0]))


def _power_of_two_from(count: int) -> int:
    return 1 << max(count - 1, 0).bit_length()
