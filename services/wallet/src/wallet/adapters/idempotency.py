"""The idempotency-key table: one row per (scope, key), holding the request's fingerprint and first response,
until the retention purge deletes it (`platform_kit.key_retention`)."""

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
ANSWER = (
    update(idempotency_keys)
    .where(*_THE_KEY)
    .values(status_code=bindparam("answer_status"), response=bindparam("answer_response"))
)
_STORED = select(idempotency_keys.c.fingerprint, idempotency_keys.c.status_code, idempotency_keys.c.response).where(
    *_THE_KEY
)


def answer(scope: str, key: str, status: int, body: dict[str, Any]) -> dict[str, Any]:
    """The parameters of `ANSWER`, which stores the command's answer under its claimed key (adapters/riders.py
    sends it with the command's last statement)."""
    return {"the_scope": scope, "the_key": key, "answer_status": status, "answer_response": json.dumps(body)}


async def stored(session: AsyncSession, scope: str, key: str) -> StoredResponse | None:
    """The key's first answer; None when the retention purge deleted the key since it was found taken."""
    row = (await session.execute(_STORED, {"the_scope": scope, "the_key": key})).one_or_none()
    if row is None:
        return None
    # A claimed key is completed in the claiming transaction, so a committed row always has its response.
    return StoredResponse(row.fingerprint, row.status_code, json.loads(row.response))
