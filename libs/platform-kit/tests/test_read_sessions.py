"""`Database.sessions()` and `Database.read_connection()`, the reads: on SQLite they read beside a writer, on
PostgreSQL without a transaction (a read connection on SQLite too), and on both they refuse to write."""

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
from platform_kit.db import Database, ReadOnlySessionError
from sqlalchemy import Column, Integer, MetaData, Table, func, insert, select, text, update

Reads = Callable[[Database], AbstractAsyncContextManager[Any]]


@pytest.fixture(params=["session", "connection"])
def reads(request: pytest.FixtureRequest) -> Reads:
    """The two ways to read: an ORM read session, or a bare read connection (for hot Core reads)."""
    if request.param == "session":
        return lambda db: db.sessions()
    return lambda db: db.read_connection()


async def test_a_read_is_answered_while_a_writer_holds_the_lock_and_sees_what_was_committed(
    tmp_path: Path, reads: Reads
) -> None:
    """Were a reader to begin as a writer does (BEGIN IMMEDIATE), it would queue behind the open transaction —
    here, which waits for it, until the busy timeout failed it with "database is locked"."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/reads.db")
    try:
        async with db.transaction() as session:
            await session.execute(text("CREATE TABLE t (a INTEGER)"))
            await session.execute(text("INSERT INTO t VALUES (1)"))
        async with db.transaction() as writer:
            await writer.execute(text("INSERT INTO t VALUES (2)"))
            async with reads(db) as reader:
                seen = await reader.scalar(text("SELECT count(*) FROM t"))
        async with reads(db) as reader:
            after = await reader.scalar(text("SELECT count(*) FROM t"))
    finally:
        await db.dispose()
    assert (seen, after) == (1, 2)


@pytest.mark.postgres
async def test_on_postgresql_a_read_runs_without_a_transaction_and_a_write_transaction_keeps_its_own(
    postgres_url: str, reads: Reads
) -> None:
    """No BEGIN, no ROLLBACK around a read (one round trip instead of three): each statement of a read
    is a transaction of its own, with an id of its own; a `transaction()` on the same pooled connection
    afterwards still runs its statements in one transaction."""
    db = Database(postgres_url, pool_size=1)
    transaction_id = text("SELECT txid_current()")
    try:
        async with reads(db) as reader:
            read = [await reader.scalar(transaction_id) for _ in range(2)]
        async with db.transaction() as writer:
            written = [await writer.scalar(transaction_id) for _ in range(2)]
    finally:
        await db.dispose()
    assert read[0] != read[1]
    assert written[0] == written[1]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/w.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


async def test_a_read_refuses_to_write(database_url: str, reads: Reads) -> None:
    """On PostgreSQL a write through a read would commit at once, outside the use case's transaction;
    it is refused instead, before it reaches the database, and nothing is written."""
    db = Database(database_url)
    rows = Table("rows", MetaData(), Column("a", Integer))
    try:
        async with db.transaction() as session:
            await session.execute(text("CREATE TABLE rows (a INTEGER)"))
        async with reads(db) as reader:
            with pytest.raises(ReadOnlySessionError):
                await reader.execute(insert(rows).values(a=1))
            with pytest.raises(ReadOnlySessionError):
                await reader.execute(update(rows).values(a=2))
        async with reads(db) as reader:
            count = await reader.scalar(select(func.count()).select_from(rows))
    finally:
        await db.dispose()
    assert count == 0


async def test_a_read_connection_runs_each_statement_on_what_was_committed_before_it(database_url: str) -> None:
    """A read connection holds no transaction on either database (on SQLite it would cost a BEGIN, several
    thread hops of aiosqlite, for every hot read): its second statement sees a commit made after its first.
    A read session keeps one snapshot on SQLite (a deferred transaction)."""
    db = Database(database_url)
    try:
        async with db.transaction() as session:
            await session.execute(text("CREATE TABLE t (a INTEGER)"))
        async with db.read_connection() as reader:
            before = await reader.scalar(text("SELECT count(*) FROM t"))
            async with db.transaction() as writer:
                await writer.execute(text("INSERT INTO t VALUES (1)"))
            after = await reader.scalar(text("SELECT count(*) FROM t"))
    finally:
        await db.dispose()
    assert (before, after) == (0, 1)
