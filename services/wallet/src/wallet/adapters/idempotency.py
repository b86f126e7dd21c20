"""The idempotency-key table: one row per (scope, key), holding the request's fingerprint and first response,
until the retention purge deletes it (`platform_kit.key_retention`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.orm import idempotency_keys
from wallet.adapters.sql import insert_ignoring_conflicts, insert_ignoring_conflicts_returning


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


Claim = tuple[str, str]
"""A key in its scope: (scope, key)."""


async def claim_many(session: AsyncSession, fingerprints: Mapping[Claim, str], now: datetime) -> set[Claim]:
    """Take the keys ((scope, key) → its request's fingerprint) not taken yet, in one statement; returns those
    taken now. The rows go in (scope, key) order: two transactions claiming overlapping keys wait for each other's
    (as `claim` does) in one order, never in a cycle."""
    if not fingerprints:
        return set()
    rows = [
        {"scope": scope, "key": key, "fingerprint": fingerprints[scope, key], "status_code": None, "response": None,
         "created_at": now}
        for scope, key in sorted(fingerprints)
    ]  # fmt: skip
    columns = (idempotency_keys.c.scope, idempotency_keys.c.key)
    statement = insert_ignoring_conflicts_returning(session, idempotency_keys, *columns)
    return {(row.scope, row.key) for row in await session.execute(statement, rows)}


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


_STORED_MANY = select(
    idempotency_keys.c.scope,
    idempotency_keys.c.key,
    idempotency_keys.c.fingerprint,
    idempotency_keys.c.status_code,
    idempotency_keys.c.response,
).where(tuple_(idempotency_keys.c.scope, idempotency_keys.c.key).in_(bindparam("claims", expanding=True)))


async def stored_many(session: AsyncSession, claims: Iterable[Claim]) -> dict[Claim, StoredResponse]:
    """`stored` of many keys, in one statement: a key the retention purge deleted is missing."""
    rows = await session.execute(_STORED_MANY, {"claims": sorted(claims)})
    return {
        (row.scope, row.key): StoredResponse(row.fingerprint, row.status_code, json.loads(row.response)) for row in rows
    }


async def answer_many(session: AsyncSession, answers: Sequence[Mapping[str, Any]]) -> None:
    """Store the answers (`answer`'s parameters) under their claimed keys, in one batch."""
    if answers:
        await session.execute(ANSWER, list(answers))
