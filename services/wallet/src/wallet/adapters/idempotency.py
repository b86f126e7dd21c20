"""The idempotency-key table: one row per (scope, key), holding the request's fingerprint and first response."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import idempotency_keys
from wallet.adapters.sql import insert_ignoring_conflicts


@dataclass(frozen=True)
class StoredResponse:
    fingerprint: str
    status: int
    body: dict[str, Any]


async def claim(
    session: AsyncSession,
    scope: str,
    key: str,
    fingerprint: str,
    now: datetime,
    *,
    status: int | None = None,
    body: dict[str, Any] | None = None,
) -> bool:
    """Take the key for this request; False when it is already taken. On PostgreSQL a concurrent claim of the
    same key waits here until the first transaction ends, so two duplicates never both execute."""
    result = await session.execute(
        insert_ignoring_conflicts(session, idempotency_keys).values(
            scope=scope,
            key=key,
            fingerprint=fingerprint,
            status_code=status,
            response=None if body is None else json.dumps(body),
            created_at=now,
        )
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def complete(session: AsyncSession, scope: str, key: str, status: int, body: dict[str, Any]) -> None:
    await session.execute(
        update(idempotency_keys)
        .where(idempotency_keys.c.scope == scope, idempotency_keys.c.key == key)
        .values(status_code=status, response=json.dumps(body))
    )


async def stored(session: AsyncSession, scope: str, key: str) -> StoredResponse:
    row = (
        await session.execute(
            select(idempotency_keys.c.fingerprint, idempotency_keys.c.status_code, idempotency_keys.c.response).where(
                idempotency_keys.c.scope == scope, idempotency_keys.c.key == key
            )
        )
    ).one()
    # A claimed key is completed in the claiming transaction, so a committed row always has its response.
    return StoredResponse(row.fingerprint, row.status_code, json.loads(row.response))
