"""`platform_kit.sqlite_driver`: every SQLite engine of `Database` runs a statement in one call to its
connection's thread, and a statement's outcome is what the driver's own cursor gives — rows, RETURNING, rowcount,
lastrowid, executemany, errors, rollback (issue 14)."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest
from platform_kit.db import SQLITE_INLINE_READ_BUSY_SECONDS, Database
from sqlalchemy import Column, Integer, MetaData, String, Table, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError

metadata = MetaData()
items = Table(
    "items",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("n", Integer, nullable=False),
)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path}/driver.db")
    async with database.transaction() as session:
        await session.run_sync(lambda sync: metadata.create_all(sync.connection()))
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
def thread_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The calls made to aiosqlite's connection threads, by the name of what each ran."""
    calls: list[str] = []
    queue_call = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(getattr(fn, "__name__", repr(fn)))
        return await queue_call(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    yield calls


async def test_a_statement_is_one_call_to_the_connections_thread(db: Database, thread_calls: list[str]) -> None:
    async with db.sessions() as session:
        await session.execute(text("SELECT 1"))  # the connection opened, its pragmas set: not counted below
    thread_calls.clear()
    async with db.sessions() as session:
        rows = (await session.execute(select(items.c.id).where(items.c.n > 0))).all()
        one = await session.scalar(text("SELECT 41 + 1"))
    assert (rows, one) == ([], 42)
    # SQLAlchemy's adapter made 3 or 4 calls a statement, BEGIN's and ROLLBACK's included.
    assert thread_calls == ["_run_statement", "_run_statement", "_run_statement", "rollback"]


async def test_a_read_connections_statements_make_no_call_to_the_thread(db: Database, thread_calls: list[str]) -> None:
    """They run in the event loop's thread (`inline_reads_dbapi`), and giving the connection back, which has no
    transaction open, rolls nothing back."""
    async with db.read_connection() as connection:
        await connection.execute(text("SELECT 1"))
    thread_calls.clear()
    async with db.read_connection() as connection:
        rows = (await connection.execute(select(items.c.id).where(items.c.n > 0))).all()
        one = await connection.scalar(text("SELECT 41 + 1"))
    assert (rows, one) == ([], 42)
    assert thread_calls == []


async def test_a_transaction_given_back_open_is_rolled_back(db: Database) -> None:
    """The pool's rollback is spared only when SQLite has no transaction open on the connection."""
    async with db.engine.connect() as connection:
        # Begun on the driver's connection, behind SQLAlchemy's back: only the pool's rollback can end it.
        driver = (await connection.get_raw_connection()).driver_connection
        await driver.execute("BEGIN IMMEDIATE")
        await driver.execute("INSERT INTO items (name, n) VALUES ('left open', 1)")
        assert driver._conn.in_transaction
    async with db.transaction() as session:  # the write lock was let go: another writer gets it at once
        await session.execute(insert(items).values(name="next", n=2))
    async with db.read_connection() as connection:
        assert (await connection.execute(select(items.c.name))).scalars().all() == ["next"]


async def test_rows_returning_rowcount_lastrowid_and_executemany_are_the_drivers(db: Database) -> None:
    async with db.transaction() as session:
        inserted = await session.execute(insert(items).values(name="a", n=1))
        assert inserted.inserted_primary_key == (1,)  # from the cursor's lastrowid
        await session.execute(insert(items), [{"name": name, "n": 2} for name in "bcd"])  # executemany
        returned = await session.execute(insert(items).values(name="e", n=3).returning(items.c.id, items.c.name))
        assert returned.all() == [(5, "e")]
        changed = await session.execute(update(items).where(items.c.n == 2).values(n=20))
        assert changed.rowcount == 3
    async with db.read_connection() as connection:
        result = await connection.execute(select(items.c.name, items.c.n).order_by(items.c.id))
        assert result.fetchmany() == [("a", 1)]  # fetchmany without a size: one row, as the driver's cursor
        assert result.fetchmany(2) == [("b", 20), ("c", 20)]
        assert result.all() == [("d", 20), ("e", 3)]


async def test_an_error_is_the_drivers_and_its_transaction_rolls_back(db: Database) -> None:
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            await session.execute(insert(items).values(name="x", n=1))
            await session.execute(insert(items).values(name="x", n=2))  # the unique name
    with pytest.raises(OperationalError, match="no such table"):
        async with db.read_connection() as connection:
            await connection.execute(text("SELECT * FROM missing"))
    async with db.read_connection() as connection:
        assert (await connection.execute(select(items))).all() == []  # the first row went with the rollback


async def test_a_read_connection_waits_briefly_for_a_lock_and_a_writer_long(db: Database) -> None:
    """A read connection's wait blocks the event loop (SQLITE_INLINE_READ_BUSY_SECONDS); a writer's does not."""
    async with db.read_connection() as connection:
        assert await connection.scalar(text("PRAGMA busy_timeout")) == SQLITE_INLINE_READ_BUSY_SECONDS * 1000
    async with db.transaction() as session:
        assert await session.scalar(text("PRAGMA busy_timeout")) == 30_000
    async with db.sessions() as session:
        assert await session.scalar(text("PRAGMA busy_timeout")) == 30_000
