"""A service's own database through SQLAlchemy 2 async: PostgreSQL when deployed, an SQLite file standalone."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, DateTime, Dialect, Integer, TypeDecorator, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.engine.url import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.sql import Executable

from platform_kit.fair_pool import FairQueuePool
from platform_kit.instants import as_utc
from platform_kit.sqlite_driver import inline_reads_dbapi, one_hop_dbapi
from platform_kit.sqlite_writers import WriteTurns

__all__ = ["BigIntPK", "Database", "UtcDateTime"]

# Auto-incrementing 64-bit keys on PostgreSQL; SQLite only auto-increments an INTEGER PRIMARY KEY.
BigIntPK = BigInteger().with_variant(Integer(), "sqlite")
_READ_ONLY = "platform_read_only"
_NO_TRANSACTION = "platform_no_transaction"
SQLITE_BUSY_SECONDS = 30.0
"""How long an SQLite statement waits for a lock (the driver's busy timeout), and a writer for its turn."""
SQLITE_READERS = 2
"""Connections for the reads of an SQLite file (see `Database.__init__`)."""
SQLITE_INLINE_READ_BUSY_SECONDS = 0.1
"""How long a read connection's statement waits for a lock on SQLite, the event loop with it (see there)."""


class UtcDateTime(TypeDecorator[datetime]):
    """An aware instant, stored in UTC; its DDL is plain `DateTime(timezone=True)`.

    SQLite keeps no offset: it is dropped on the way in (after converting to UTC) and put back on the way out,
    so both databases hand back aware UTC datetimes (`platform_kit.instants.as_utc`). A naive datetime is refused
    on the way in rather than guessed at: every clock of the platform is aware.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: instants are stored in UTC, pass an aware one")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return as_utc(value)


class Database:
    def __init__(self, url: str, *, echo: bool = False, pool_size: int = 10, pool_timeout: float = 5.0) -> None:
        """At most `pool_size` connections (PostgreSQL), opened as the load asks for them and then kept; a request
        that finds all of them busy waits at most `pool_timeout` seconds, then fails with SQLAlchemy's
        TimeoutError, which the app factory answers 503 with Retry-After (platform_kit.errors) instead of
        hanging."""
        self.url = url
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        options: dict[str, Any] = {"echo": echo}
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            options["connect_args"] = {"timeout": SQLITE_BUSY_SECONDS}
            options["module"] = one_hop_dbapi()
        else:
            # No pre-ping: it costs a round trip per checkout; a connection broken by a database restart fails
            # its request once (a retryable 5xx) and is discarded by the pool.
            # No overflow: SQLAlchemy closes an overflow connection as soon as it is checked in, so under a load
            # steadily above the kept connections every few requests paid for a new one (a TCP handshake, the
            # TLS probe, authentication and a PostgreSQL backend forked): py-spy found the gateway spending a
            # tenth of its time in asyncpg.connect at 50 clients (issue 14). A connection, once opened, stays.
            # First come, first served (`platform_kit.fair_pool`): under load a waiter is not overtaken by later
            # requests again and again until the timeout.
            options.update(
                poolclass=FairQueuePool,
                pool_size=pool_size,
                max_overflow=0,
                pool_timeout=pool_timeout,
                pool_recycle=1800,
            )
        self.engine: AsyncEngine = _engine(url, options)
        self._readers = self.engine
        self._inline_readers: AsyncEngine | None = None
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            # The reads on connections of their own, a few, taken first come first served. aiosqlite runs each
            # connection in a thread of its own, and every thread that has a result for the event loop waits for
            # the GIL: with the writers' pool (up to 15 connections) shared by 50 concurrent reads, a read's p99
            # was ~100 ms; with SQLITE_READERS it is ~25 ms, and more of them a second (bench_gateway, issue 14).
            # In WAL a reader never waits for a writer, so a small pool of readers only queues reads.
            readers = {"poolclass": FairQueuePool, "pool_size": SQLITE_READERS, "max_overflow": 0}
            readers |= {"pool_timeout": pool_timeout}
            self._readers = _engine(url, options | readers, readers=True)
            # And the read connections on connections of their own again, whose statements run in the event
            # loop's thread (`sqlite_driver.inline_reads_dbapi`: see there why only these). A lock to wait for
            # (only in the rare moments a WAL reader meets one: a crashed writer's log being recovered) would be
            # waited for by the whole event loop: a short wait, then "database is locked".
            connect = {"timeout": SQLITE_INLINE_READ_BUSY_SECONDS, "check_same_thread": False}
            inline = {"module": inline_reads_dbapi(), "connect_args": connect}
            self._inline_readers = _engine(url, options | readers | inline, readers=True)
        self._writing = async_sessionmaker(self.engine, expire_on_commit=False)
        #: SQLite writes one transaction at a time: the process's writers take turns before they begin.
        self._write_turns = WriteTurns(SQLITE_BUSY_SECONDS) if self.is_sqlite else None
        #: Sessions for reads: they refuse to write (`ReadOnlySession`). On SQLite their transaction is deferred,
        #: so readers never queue for the one write lock (WAL lets them read beside a writer), and its snapshot
        #: holds for all their statements. On PostgreSQL they run without a transaction (autocommit): under READ
        #: COMMITTED every statement sees a snapshot of its own anyway, and no BEGIN and ROLLBACK means one
        #: round trip for a one-statement read instead of three (a round trip costs more CPU here than the
        #: query: the capacity note of issue 14).
        self._reading_engine = _for_reads(
            self._readers, **({} if self.is_sqlite else {"isolation_level": "AUTOCOMMIT"})
        )
        self.sessions = async_sessionmaker(
            self._reading_engine, expire_on_commit=False, sync_session_class=ReadOnlySession
        )
        #: The read connections run without a transaction on both databases: each statement reads a snapshot of
        #: its own, as on PostgreSQL under READ COMMITTED. On SQLite that spares the BEGIN, a statement each
        #: read paid for.
        self._connection_engine = (
            self._reading_engine if self._inline_readers is None else _for_reads(self._inline_readers)
        )
        if self.is_sqlite:
            self._connection_engine = self._connection_engine.execution_options(**{_NO_TRANSACTION: True})

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on any exception. On SQLite it
        begins once the process's write transactions before it have ended (`sqlite_writers`)."""
        async with self._write_turn(), self._writing() as session, session.begin():
            yield session

    def _write_turn(self) -> AbstractAsyncContextManager[None]:
        return nullcontext() if self._write_turns is None else self._write_turns.turn()

    @asynccontextmanager
    async def read_connection(self) -> AsyncIterator[AsyncConnection]:
        """A connection for Core reads (`select`, `text`), without a transaction (each statement sees what was
        committed when it began, on SQLite as on PostgreSQL) and with any INSERT, UPDATE or DELETE refused before
        it reaches the database, and without an ORM session around it: a one-row read costs about 200 µs less CPU
        this way (the session's transaction object, its ORM execute state and event: issue 14). For a hot read
        path whose statements need not share a snapshot; `sessions()` otherwise. Returned to the pool when the
        block ends, also on an exception."""
        async with self._connection_engine.connect() as connection:
            yield connection

    async def ping(self) -> bool:
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._readers is not self.engine:
            await self._readers.dispose()
        if self._inline_readers is not None:
            await self._inline_readers.dispose()


def after_commit(session: AsyncSession, callback: Callable[[], object]) -> None:
    """Runs `callback` once `session`'s transaction has committed, and never if it rolls back: for what a use
    case changes outside the database (a socket closed, a worker woken), which must not run ahead of the rows
    that justify it (a reader could otherwise find the old rows after seeing the effect).

    The callbacks wait in the session's `info` for the one listener every session has (`_run_after_commit`):
    registering a listener of its own per transaction (`event.listen` on the session) was 1–2 % of the wallet's
    CPU per command over HTTP (py-spy, bench_wallet: issue 14)."""
    session.info.setdefault(_AFTER_COMMIT, []).append(callback)


_AFTER_COMMIT = "platform_after_commit"
"""session.info key: the callbacks `after_commit` registered, run (and dropped) at the session's next commit."""


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    for callback in session.info.pop(_AFTER_COMMIT, ()):
        callback()


class ReadOnlySession(Session):
    """A session that refuses INSERT, UPDATE and DELETE statements and flushing changed objects: a write through
    a read session would, on PostgreSQL, commit on its own (autocommit), outside any transaction of the use case."""

    def flush(self, objects: Any = None) -> None:
        if self.new or self.dirty or self.deleted:
            raise ReadOnlySessionError("a read session may not write: objects changed in it")
        super().flush(objects)


@event.listens_for(ReadOnlySession, "do_orm_execute")
def _refuse_writes(state: ORMExecuteState) -> None:
    if state.statement.is_dml:
        raise ReadOnlySessionError(f"a read session may not write: {state.statement}")


def _for_reads(engine: AsyncEngine, **options: Any) -> AsyncEngine:
    """`engine` for reads only: a read transaction on SQLite (BEGIN, not BEGIN IMMEDIATE: see `_sqlite_begin`),
    and any INSERT, UPDATE or DELETE refused before it is sent (`_refuse_dml`)."""
    reading = engine.execution_options(**{_READ_ONLY: True}, **options)
    event.listen(reading.sync_engine, "before_execute", _refuse_dml)
    return reading


def _refuse_dml(connection: Connection, statement: Executable, *_: Any) -> None:
    """The read sessions' refusal, for the read connections (`Database.read_connection`): an `insert`, `update`
    or `delete` is refused before it is sent. (A `text()` is not parsed, here as in a read session.)"""
    if getattr(statement, "is_dml", False):
        raise ReadOnlySessionError(f"a read connection may not write: {statement}")


class ReadOnlySessionError(RuntimeError):
    """Code wrote through `Database.sessions()` or `Database.read_connection()`: use `Database.transaction()`."""


def _engine(url: str, options: dict[str, Any], *, readers: bool = False) -> AsyncEngine:
    engine = create_async_engine(url, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_reader_pragmas if readers else _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    _sqlite_reader_pragmas(dbapi_connection, _record)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_reader_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """A reader's connection does not switch the file to WAL: that is a writer's (the mode is the file's, kept
    once set), and a switch made by two connections opening at once on a new file failed one of them with
    "database is locked"."""
    # SQLAlchemy, not the driver, opens transactions (see _sqlite_begin).
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection: Any) -> None:
    # A deferred transaction that reads and then writes fails at once (SQLITE_BUSY_SNAPSHOT) when another
    # connection committed in between; taking the write lock up front makes a writer wait its turn instead.
    # A reader (`Database.sessions`) never writes: it begins deferred and waits for nobody.
    options = connection.get_execution_options()
    if options.get(_NO_TRANSACTION, False):
        return  # a read connection: the driver runs each statement in a transaction of its own (autocommit)
    connection.exec_driver_sql("BEGIN" if options.get(_READ_ONLY, False) else "BEGIN IMMEDIATE")
