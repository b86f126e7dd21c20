"""A connection pool that hands connections out in order of asking: the request that has waited longest gets the
next connection returned, and a request arriving while others wait queues behind them.

Why: SQLAlchemy's asyncio pool keeps its idle connections in an `asyncio.Queue`. A connection put back wakes the
oldest waiter, but the connection stays in the queue until that waiter runs; a request arriving in between (on
a busy event loop, many do) takes it first, and the woken waiter, finding the queue empty, waits again at the
back of the line. Under a steady load above the pool's size some requests lost that race again and again: the
gateway's `GET /players/me` at 50 clients on a pool of ten answered its median in ~100 ms and its slowest after
more than 2 s (the load generator's timeout; the pool's own timeout would have made them 503s) while the others
went by (issue 14). Here a returned connection is given to the oldest waiter itself, so a wait is bounded by the
requests ahead of it, and the pool's timeout still ends any wait (503 `database_busy`, `platform_kit.errors`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from sqlalchemy.pool import AsyncAdaptedQueuePool, ConnectionPoolEntry
from sqlalchemy.util import await_
from sqlalchemy.util.queue import Empty, Full, QueueCommon

__all__ = ["FairQueuePool"]


class _FairQueue(QueueCommon[ConnectionPoolEntry]):
    """The pool's idle connections, and the requests waiting for one (oldest first)."""

    def __init__(self, maxsize: int = 0, use_lifo: bool = False) -> None:
        self.maxsize = maxsize
        self.use_lifo = use_lifo  # kept for the pool's `recreate`; the idle connections are used in turn anyway
        self._idle: deque[ConnectionPoolEntry] = deque()
        self._waiters: deque[asyncio.Future[ConnectionPoolEntry]] = deque()

    def empty(self) -> bool:
        return not self._idle

    def full(self) -> bool:
        return 0 < self.maxsize <= len(self._idle)

    def qsize(self) -> int:
        return len(self._idle)

    def put_nowait(self, item: ConnectionPoolEntry) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():  # a waiter that timed out is skipped
                waiter.set_result(item)
                return
        if self.full():
            raise Full()
        self._idle.append(item)

    def put(self, item: ConnectionPoolEntry, block: bool = True, timeout: float | None = None) -> None:
        self.put_nowait(item)  # never blocks: the pool puts back only connections it handed out

    def get_nowait(self) -> ConnectionPoolEntry:
        if self._idle and not self._waiters:
            return self._idle.popleft()
        raise Empty()

    def get(self, block: bool = True, timeout: float | None = None) -> ConnectionPoolEntry:
        if self._idle and not self._waiters:
            return self._idle.popleft()
        if not block:
            raise Empty()
        return await_(self._wait(timeout))

    async def _wait(self, timeout: float | None) -> ConnectionPoolEntry:
        waiter: asyncio.Future[ConnectionPoolEntry] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout):
                return await waiter
        except BaseException as error:
            if waiter.done() and not waiter.cancelled():
                # Handed a connection just as the wait ended (timed out or cancelled): pass it on, never lose it.
                self.put_nowait(waiter.result())
            else:
                waiter.cancel()
                if waiter in self._waiters:  # else `put_nowait` already dropped it
                    self._waiters.remove(waiter)
            if isinstance(error, TimeoutError):
                raise Empty() from None  # the pool raises its TimeoutError: 503 database_busy
            raise


class FairQueuePool(AsyncAdaptedQueuePool):
    """SQLAlchemy's asyncio queue pool, with waiters served first come, first served (`_FairQueue`)."""

    _queue_class: Any = _FairQueue
