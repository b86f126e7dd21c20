"""Player protection in the database: one settings row per player, and the append-only history of changes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from platform_kit.sql import upsert
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from gateway.adapters.orm import player_protection, protection_changes
from gateway.domain.protection import ExclusionTerm, SelfExclusion, SessionRules


@dataclass(frozen=True, slots=True)
class ProtectionRecord:
    player_id: str
    exclusion: SelfExclusion | None
    rules: SessionRules
    session_started_at: datetime | None


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    setting: str
    value: str | None
    changed_by: str
    changed_at: datetime
    effective_from: datetime
    effective_until: datetime | None


_OF_PLAYER = select(player_protection).where(player_protection.c.player_id == bindparam("player_id"))


async def get(session: AsyncSession | AsyncConnection, player_id: str) -> ProtectionRecord:
    """The player's settings; defaults (nothing set, no session yet) for a player without a row. On a session, or
    on a bare read connection for a hot path (each of a player's table commands reads them)."""
    row = (await session.execute(_OF_PLAYER, {"player_id": player_id})).mappings().first()
    return record_of(player_id, row)


def record_of(player_id: str, row: Mapping[Any, Any] | None) -> ProtectionRecord:
    """The settings from a `player_protection` row (its columns by name); None: the defaults."""
    if row is None or row["updated_at"] is None:  # no row, or an outer join that found none
        return ProtectionRecord(player_id, None, SessionRules(), None)
    exclusion = None
    if row["exclusion_term"] is not None:
        exclusion = SelfExclusion(ExclusionTerm(row["exclusion_term"]), row["excluded_from"], row["excluded_until"])
    rules = SessionRules(row["reality_check_minutes"], row["session_limit_minutes"])
    return ProtectionRecord(player_id, exclusion, rules, row["session_started_at"])


async def put(session: AsyncSession, player_id: str, now: datetime, **values: Any) -> None:
    """Set some columns of the player's row, creating it if need be, in one statement: an update-then-insert
    let two first writes for one player (a log-in and a setting at once) both insert, and one failed on the key."""
    await upsert(session, player_protection, [{"player_id": player_id, "updated_at": now, **values}], ("player_id",))


def exclusion_columns(exclusion: SelfExclusion) -> dict[str, Any]:
    return {
        "exclusion_term": exclusion.term.value,
        "excluded_from": exclusion.starts_at,
        "excluded_until": exclusion.ends_at,
    }


async def record_change(session: AsyncSession, player_id: str, change: ChangeRecord) -> None:
    await session.execute(
        protection_changes.insert().values(
            player_id=player_id,
            setting=change.setting,
            value=change.value,
            changed_by=change.changed_by,
            changed_at=change.changed_at,
            effective_from=change.effective_from,
            effective_until=change.effective_until,
        )
    )


async def history(session: AsyncSession, player_id: str) -> list[ChangeRecord]:
    c = protection_changes.c
    rows = await session.execute(
        select(c.setting, c.value, c.changed_by, c.changed_at, c.effective_from, c.effective_until)
        .where(c.player_id == player_id)
        .order_by(c.id.desc())
    )
    return [ChangeRecord(*row) for row in rows]
