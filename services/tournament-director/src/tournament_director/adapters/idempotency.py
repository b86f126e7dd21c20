"""The idempotency-key table: one row per (caller scope, key) with the fingerprint of the request the key named,
the claim of the request running it, and, once it is in, the first answer (service/idempotent.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import idempotency_keys as keys


@dataclass(frozen=True)
class StoredKey:
    fingerprint: str
    claim: str
    claimed_at: datetime
    #: The first answer, None while the request that claimed the key is running.
    status: int | None
    body: Any


async def claim(session: AsyncSession, scope: str, key: str, fingerprint: str, token: str, now: datetime) -> bool:
    """Take the key for a request; False when it is taken. On PostgreSQL a concurrent claim of the same key
    waits here until the first claim commits, then finds it taken."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    row = {
        "scope": scope,
        "key": key,
        "fingerprint": fingerprint,
        "claim": token,
        "claimed_at": now,
        "created_at": now,
    }
    result = await session.execute(dialect.insert(keys).values(row).on_conflict_do_nothing())
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def stored(session: AsyncSession, scope: str, key: str) -> StoredKey | None:
    query = select(keys).where(keys.c.scope == scope, keys.c.key == key)
    row = (await session.execute(query)).mappings().first()
    if row is None:
        return None
    body = None if row["response"] is None else json.loads(row["response"])
    return StoredKey(row["fingerprint"], row["claim"], row["claimed_at"], row["status_code"], body)


async def take_over(session: AsyncSession, scope: str, key: str, stale: str, token: str, now: datetime) -> bool:
    """Replace the unanswered claim `stale` (its request died) by `token`; False when something else did first."""
    result = await session.execute(
        update(keys)
        .where(keys.c.scope == scope, keys.c.key == key, keys.c.claim == stale, keys.c.status_code.is_(None))
        .values(claim=token, claimed_at=now)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def complete(session: AsyncSession, scope: str, key: str, token: str, status: int, body: Any) -> bool:
    """Store the answer of the request holding the claim `token`; False when it no longer holds it."""
    result = await session.execute(
        update(keys)
        .where(keys.c.scope == scope, keys.c.key == key, keys.c.claim == token, keys.c.status_code.is_(None))
        .values(status_code=status, response=json.dumps(body))
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def release(session: AsyncSession, scope: str, key: str, token: str) -> None:
    """Give the key up unanswered: the next request with it runs afresh."""
    await session.execute(
        delete(keys).where(
            keys.c.scope == scope, keys.c.key == key, keys.c.claim == token, keys.c.status_code.is_(None)
        )
    )
