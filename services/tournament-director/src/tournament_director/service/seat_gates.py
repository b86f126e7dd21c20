"""One seat held at a time per tournament in this process; the other registrations for it wait here.

Holding a seat locks the tournament's row (`tournaments.get(lock=True)`) from the hold's first statement to its
commit: the count of seats taken must not change under it. In a registration rush every other hold of the same
tournament waited for that lock inside PostgreSQL, each with one of the process's pooled connections — 7 of the
director's 10 on average in a 3,000-player rush (pg_stat_activity) — so the rest of every registration (its
Idempotency-Key, its reads, the wallet's answer applied) waited for a connection too, and the whole rush went
through at about six registrations a second. A hold waiting here holds no connection. The row lock stays: it
orders this process's holds with other replicas' and with the start.

Invariant: a tournament's gate exists only while a hold has it or waits for it (the last to leave drops it); a
waiter cancelled while waiting leaves as it would an asyncio.Lock, taking no turn from the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class _Gate:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class SeatGates:
    def __init__(self) -> None:
        self._gates: dict[str, _Gate] = {}

    @asynccontextmanager
    async def holding(self, tournament_id: str) -> AsyncIterator[None]:
        """The body runs alone among this process's holds of `tournament_id` (enter it before the unit of work,
        so that waiting takes no database connection)."""
        gate = self._gates.setdefault(tournament_id, _Gate())
        gate.users += 1
        try:
            async with gate.lock:
                yield
        finally:
            gate.users -= 1
            if gate.users == 0:
                del self._gates[tournament_id]

    def __len__(self) -> int:
        """Tournaments with a hold running or waiting."""
        return len(self._gates)
