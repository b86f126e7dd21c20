"""Admission: at most `limit` requests of one use case in flight in this process; one more waits at most
`wait_seconds` for a place (in the order they came), or is refused at once when that is 0.

    placing = Admission(settings.intake_in_flight, "intake_busy", "Too many coupons are being placed; …")
    async with placing.admit():
        ...  # the use case, from its first read to its answer

Used by the totalizator's coupon intake and the director's keyed requests (registrations, purchases …).

Why refuse instead of queueing: a use case that needs a database connection several times (a registration
takes five, around its wallet call) queues for the pool each time when hundreds arrive at once. Every request
then waits behind all the others at every step: all of them slow down together until the pool's timeout
refuses some half-done (503 `database_busy`) and the rest answer after tens of seconds. Admitting only what the
pool can serve keeps the admitted ones fast, and tells the others at once, with Retry-After, to come back.

Why wait a little before refusing: a refused client comes back, and every attempt is a whole round trip again
(through the gateway: authentication, its reads, the relay; here: the request parsed, its dependencies solved):
in a 3,000-player registration rush the director refused 5,219 registrations for 2,839 made. A short wait in
line, outside the pool, keeps the admitted ones fast and turns some of those round trips into one.

Invariant: a refused request has done nothing — it is refused before its first read or write, so nothing was
claimed under its Idempotency-Key and a retry with the same key runs it as new. An admitted request holds its
place until it answers or fails (the count is released in `finally`, so a crash of the request never leaks a
place). The count is per process: replicas each admit their own `limit`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from platform_kit.errors import Unavailable

__all__ = ["Admission"]


class Admission:
    def __init__(self, limit: int, code: str, message: str, *, wait_seconds: float = 0.0) -> None:
        if limit < 1:
            raise ValueError(f"an admission limit is at least 1, not {limit}")
        self.limit = limit
        self.code = code
        self.message = message
        self.wait_seconds = wait_seconds
        self.in_flight = 0
        # Fair: asyncio.Semaphore is `locked()` while anyone waits (Python 3.11.7 here), so a newcomer queues behind.
        self._places = asyncio.Semaphore(limit)

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[None]:
        """Runs the body once fewer than `limit` are in flight, waiting at most `wait_seconds` for that;
        otherwise 503 `code` with Retry-After."""
        if self._places.locked() and self.wait_seconds <= 0:
            raise Unavailable(self.code, self.message)
        try:
            async with asyncio.timeout(self.wait_seconds if self.wait_seconds > 0 else None):
                await self._places.acquire()
        except TimeoutError:
            raise Unavailable(self.code, self.message) from None
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self._places.release()
