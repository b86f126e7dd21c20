"""The lobby's schedule entries staff keep (orm.lobby_entries)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import lobby_entries
from tournament_director.domain.lobby_schedule import LobbyEntry


@dataclass(frozen=True, slots=True)
class StoredEntry:
    entry: LobbyEntry
    concessionaire_id: str | None
    enabled: bool
    created_by: str
    created_at: datetime
    disabled_at: datetime | None


def _stored(row: object) -> StoredEntry:
    values = row._mapping  # type: ignore[attr-defined]
    entry = LobbyEntry(key=values["key"], body=json.loads(values["body"]), every_minutes=values["every_minutes"])
    return StoredEntry(
        entry,
        values["concessionaire_id"],
        values["enabled"],
        values["created_by"],
        values["created_at"],
        values["disabled_at"],
    )


async def listed(
    session: AsyncSession, *, concessionaire_id: str | None = None, enabled_only: bool = False
) -> list[StoredEntry]:
    """Every entry, or a concessionaire's; the newest first."""
    query = select(lobby_entries).order_by(lobby_entries.c.created_at.desc(), lobby_entries.c.key)
    if concessionaire_id is not None:
        query = query.where(lobby_entries.c.concessionaire_id == concessionaire_id)
    if enabled_only:
        query = query.where(lobby_entries.c.enabled)
    return [_stored(row) for row in (await session.execute(query)).all()]


async def get(session: AsyncSession, key: str) -> StoredEntry | None:
    row = (await session.execute(select(lobby_entries).where(lobby_entries.c.key == key))).one_or_none()
    return None if row is None else _stored(row)


async def insert_entry(
    session: AsyncSession, entry: LobbyEntry, concessionaire_id: str | None, created_by: str, now: datetime
) -> None:
    await session.execute(
        insert(lobby_entries).values(
            key=entry.key,
            concessionaire_id=concessionaire_id,
            body=json.dumps(entry.body, sort_keys=True),
            every_minutes=entry.every_minutes,
            enabled=True,
            created_by=created_by,
            created_at=now,
        )
    )


async def disable(session: AsyncSession, key: str, now: datetime) -> None:
    await session.execute(
        update(lobby_entries)
        .where(lobby_entries.c.key == key, lobby_entries.c.enabled)
        .values(enabled=False, disabled_at=now)
    )
