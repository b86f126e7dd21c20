"""Write transactions on an SQLite file take turns in the process, first come first served, before they begin.

SQLite lets one write transaction run at a time (`BEGIN IMMEDIATE`, db.py `_sqlite_begin`). Left to the driver, a
second writer waits in SQLite's busy handler, which polls the lock with sleeps growing to 100 ms (1, 2, 5, 10 …):
a writer could sleep through many commits of the others, and each waiting writer held a pooled connection and a
driver thread meanwhile. In a standalone service, one process, the writers are its own tasks (the wallet's group
commit, the outbox relay, the inbox), so they wait in an `asyncio.Lock` instead: each begins as soon as the one
before it has committed, in the order they came, holding no connection while it waits. Measured with the wallet
over HTTP (`bench/bench_wallet.py --database sqlite`, 50 callers, issue 14): `BEGIN IMMEDIATE` took up to 1.4 s
(p99 140-340 ms) by the busy handler, in turn p99 13-15 ms (max 23), and the operations' p99 fell from 61-118 ms to 33-49 ms.

Invariant: at most one write transaction of a `Database` on an SQLite file is open in this process at a time,
unless one waited longer than `wait_seconds` for its turn: it then begins without it, and SQLite's own lock
orders it as before (a transaction that awaits another writer of the process would otherwise wait forever). Other
processes on the same file (the CLI, a migration) are ordered by SQLite's lock and busy handler, as before.

Crash behaviour: the turn is held in memory only: a process that dies holds none, and SQLite rolls back the
transaction it had open.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class WriteTurns:
    def __init__(self, wait_seconds: float) -> None:
        self._wait_seconds = wait_seconds
        self._lock: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Held from before the transaction begins until it has committed or rolled back."""
        lock = self._lock_of_this_loop()
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation (a service stopping its
        # relay) that arrives as the lock is granted, and the cancelled task would go on.
        try:
            async with asyncio.timeout(self._wait_seconds):
                taken: bool = await lock.acquire()
        except TimeoutError:
            taken = False  # waited too long: SQLite's lock orders this one
        try:
            yield
        finally:
            if taken:
                lock.release()

    def _lock_of_this_loop(self) -> asyncio.Lock:
        """An asyncio lock serves the event loop it was first waited on in; a `Database` used from another loop
        (tests run one each) gets a new one."""
        loop = asyncio.get_running_loop()
        if self._lock is None or self._loop is not loop:
            self._lock, self._loop = asyncio.Lock(), loop
        return self._lock
