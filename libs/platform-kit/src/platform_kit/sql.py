"""Portable SQL helpers: the same statements on PostgreSQL (deployed) and SQLite (standalone, tests)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

T = TypeVar("T")
BATCH = 1_000  # rows per executemany / IN list: well under both databases' parameter limits


def is_postgres(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


async def upsert(session: AsyncSession, table: Table, rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> None:
    """Insert `rows`, replacing the non-key columns of those whose `keys` already exist, in one statement per
    batch: two writers of the same new key never both insert (an update-then-insert lets them, and one fails)."""
    if not rows:
        return
    dialect = postgresql if is_postgres(session) else sqlite
    statement = dialect.insert(table)
    replaced = {name: statement.excluded[name] for name in rows[0] if name not in keys}
    statement = statement.on_conflict_do_update(index_elements=list(keys), set_=replaced)
    for chunk in chunks(list(rows), BATCH):
        await session.execute(statement, chunk)


def chunks(items: Sequence[T], size: int = BATCH) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
