"""One holder at a time per key in this process, the others waiting in line (an asyncio.Lock per key).

    draws = KeyedLocks()
    async with draws.holding(draw_id):
        ...  # alone among this process's holders of draw_id

Used where a use case must not run twice at once for the same thing in one process: the totalizator's transfer
runs per draw. Across processes something else orders them (a row lock, idempotency keys): this only keeps a
process's own holders from queueing there. Where many callers do the same small transaction on one key, batch
them instead (`keyed_batches`): one at a time they go at the pace of one transaction.

Invariant: a key's lock exists only while someone holds it or waits for it (the last to leave drops it), so
keys that come and go (tournaments, draws) leave nothing behind; a waiter cancelled while waiting leaves as it
would an asyncio.Lock, taking no turn from the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

__all__ = ["KeyedLocks"]


@dataclass
class _Lock:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[str, _Lock] = {}

    @asynccontextmanager
    async def holding(self, key: str) -> AsyncIterator[None]:
        """The body runs alone among this process's holders of `key`."""
        entry = self._locks.setdefault(key, _Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[key]

    def __len__(self) -> int:
        """Keys held or waited for."""
        return len(self._locks)
