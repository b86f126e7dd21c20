"""SQLite through aiosqlite, one thread hop a statement.

aiosqlite runs each connection in a thread of its own and every call on it is a round trip to that thread: the
event loop queues the call, the thread runs it, then wakes the loop (its own wake-up, and the GIL, taken back
from a busy loop). SQLAlchemy's adapter makes three or four such calls a statement (open a cursor, execute,
fetch the rows, close the cursor); here one call does the four. A one-row read costs the loop's thread about
half the CPU it did (~150 µs from ~280 µs a statement: issue 14). The rows are fetched at once, as the adapter
did for every cursor but the server-side ones (which stay SQLAlchemy's own); a rollback with no transaction open
is no call at all. Nothing else changes: the same connection, thread, transactions and errors.

Used by `platform_kit.db` as the DBAPI module of its SQLite engines (SQLAlchemy's `module=` hook): `one_hop_dbapi`
for all of them but the read connections' engine, which takes `inline_reads_dbapi`.
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT

__all__ = ["inline_reads_dbapi", "one_hop_dbapi"]

_Outcome = tuple[Any, int, int | None, list[Any] | None]
"""What a statement leaves on its cursor: description, rowcount, lastrowid, and its rows (None: it had none)."""


def _run_statement(connection: sqlite3.Connection, operation: str, parameters: Any, many: bool) -> _Outcome:
    """In the connection's thread: the whole statement, on a cursor of its own, closed before returning."""
    cursor = connection.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        rows = cursor.fetchall() if cursor.description else None
        return cursor.description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


class _OneHopCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's cursor adapter, its statement run by `_run_statement` in one call to the connection's thread;
    it keeps the outcome, as no driver cursor stays open behind it."""

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        # Not the parent's: it opens a driver cursor (a thread hop) that this one never uses.
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._rows: collections.deque[Any] = collections.deque()
        self._soft_closed_memoized = EMPTY_DICT
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> int | None:  # type: ignore[override]
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1  # fetchmany() without a size: one row, as the driver's cursor

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        raise NotImplementedError("the rows are fetched at once: there is no array size to set")

    async def _execute_async(self, operation: Any, parameters: Any) -> None:
        await self._run(operation, parameters, many=False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> None:
        await self._run(operation, seq_of_parameters, many=True)

    async def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        async with self._adapt_connection._execute_mutex:
            connection = self._connection
            outcome = await connection._execute(_run_statement, connection._conn, operation, parameters, many)
        self._keep(outcome)

    def _keep(self, outcome: _Outcome) -> None:
        self._description, self._rowcount, self._lastrowid, rows = outcome
        self._rows = collections.deque(rows or ())

    async def _async_soft_close(self) -> None:
        return  # no driver cursor to close: `_run_statement` closed it

    def close(self) -> None:
        self._rows.clear()

    def nextset(self) -> None:
        raise NotImplementedError("SQLite statements have one result set")


class _OneHopConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls: type[AsyncAdapt_aiosqlite_cursor] = _OneHopCursor

    def rollback(self) -> None:
        """None of the thread's time when there is nothing to roll back: the pool rolls back every connection it
        takes back, and a read connection (`Database.read_connection`) never opened a transaction. The flag is
        SQLite's own (`sqlite3_get_autocommit`), readable from this thread, and no statement of this connection
        is running meanwhile (the pool has it, or its owner is the one rolling back)."""
        driver = self._connection
        if driver._connection is not None and not driver._conn.in_transaction:
            return
        super().rollback()


class _InlineCursor(_OneHopCursor):
    """The statement run in the event loop's own thread, with no call to the connection's thread at all."""

    __slots__ = ()

    async def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        self._keep(_run_statement(self._connection._conn, operation, parameters, many))


class _InlineConnection(_OneHopConnection):
    __slots__ = ()
    _cursor_cls = _InlineCursor


class _OneHopDBAPI(AsyncAdapt_aiosqlite_dbapi):
    def __init__(self, *, inline: bool) -> None:
        super().__init__(aiosqlite, sqlite3)
        self._connection_class = _InlineConnection if inline else _OneHopConnection

    def connect(self, *arg: Any, **kw: Any) -> _OneHopConnection:
        adapted = super().connect(*arg, **kw)
        return self._connection_class(self, adapted._connection)


def one_hop_dbapi() -> AsyncAdapt_aiosqlite_dbapi:
    """The DBAPI module to give `create_async_engine(..., module=...)` for an `sqlite+aiosqlite` URL."""
    return _OneHopDBAPI(inline=False)


def inline_reads_dbapi() -> AsyncAdapt_aiosqlite_dbapi:
    """`one_hop_dbapi`, but each statement runs in the event loop's thread, for the short reads of a hot path
    (`Database.read_connection`) and nothing else: another ~80 µs of the loop's CPU spared a one-row read (the
    queueing, the thread's wake-up and the loop's), but the loop waits while the statement runs. That is what
    keeps it to reads outside a transaction on a WAL file: such a read never waits for a lock (a writer appends
    to the log, the reader keeps to what was committed when it began), so the loop waits only for the read's
    own work — microseconds for the indexed lookups it is for. Opening, pragmas, rollback and closing still go
    through the connection's thread. The engine gives its connections `check_same_thread=False`: they are used
    from two threads, never at once (one task has a connection at a time, and an inline statement does not yield
    before it is done)."""
    return _OneHopDBAPI(inline=True)
