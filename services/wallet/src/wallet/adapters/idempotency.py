"""The idempotency-key table: one row per (scope, key), holding the request's fingerprint and first response."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
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
    row = {
        "scope": scope,
        "key": key,
        "fingerprint": fingerprint,
        "status_code": status,
        "response": None if body is None else json.dumps(body),
        "created_at": now,
    }
    result = await session.execute(insert_ignoring_conflicts(session, idempotency_keys), row)
    return bool(result.rowcount)  # type: ignore[attr-defined]


# Statements with bound parameters are built once: SQLAlchemy then finds them compiled in its cache at once.
_THE_KEY = (idempotency_keys.c.scope == bindparam("the_scope"), idempotency_keys.c.key == bindparam("the_key"))
_COMPLETE = update(idempotency_keys).where(*_THE_KEY)
_STORED = select(idempotency_keys.c.fingerprint, idempotency_keys.c.status_code, idempotency_keys.c.response).where(
    *_THE_KEY
)


async def complete(session: AsyncSession, scope: str, key: str, status: int, body: dict[str, Any]) -> None:
    answer = {"the_scope": scope, "the_key": key, "status_code": status, "response": json.dumps(body)}
    await session.execute(_COMPLETE, answer)


async def stored(session: AsyncSession, scope: str, key: str) -> StoredResponse:
    row = (await session.execute(_STORED, {"the_scope": scope, "the_key": key})).one()
    # A claimed key is completed in the claiming transaction, so a committed row always has its response.
    return StoredResponse(row.fingerprint, row.status_code, json.loads(row.response))
