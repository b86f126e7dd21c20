"""Group commit: requests that arrive while a transaction is being written wait, and go together in the next one.

Bet intake writes two small transactions per coupon (the pending coupon, then the wallet's answer). One at a
time, a closing rush is bound by round trips and commits (and on SQLite by its single writer and an fsync per
commit), not by the work: 20,000 coupons in a minute is 667 transactions a second. Gathered, the coupons that
arrive together share one transaction and one statement per step, so the cost per coupon falls as the load
rises (issue 14), while a lone coupon is written at once, as before (nobody waits for a timer).

The group's function answers every request of the group: a value, or the exception that request gets (a
refusal of one coupon does not undo the others). An exception raised by the function itself (the database)
is every request's answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

Flush = Callable[[list[T]], Awaitable[Sequence[R | Exception]]]


class GroupCommit(Generic[T, R]):
    def __init__(self, flush: Flush[T, R], *, max_group: int) -> None:
        self._flush = flush
        self._max_group = max_group
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: T) -> R:
        """The answer to `item`, once the group it went in is committed."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())
        # A caller that goes away (its client hung up) does not stop the group: the others wait for it too.
        return await asyncio.shield(future)

    async def _write(self) -> None:
        """One group at a time, until no request is waiting: while a group is written, the next one gathers."""
        group: list[tuple[T, asyncio.Future[R]]] = []
        try:
            while self._waiting:
                group, self._waiting = self._waiting[: self._max_group], self._waiting[self._max_group :]
                try:
                    answers = await self._flush([item for item, _ in group])
                except Exception as exc:  # the transaction failed: every request of the group learns why
                    answers = [exc] * len(group)
                for (_, future), answer in zip(group, answers, strict=True):
                    if isinstance(answer, Exception):
                        future.set_exception(answer)
                    else:
                        future.set_result(answer)
        finally:  # stopped (the service shuts down): nobody is left waiting for an answer that will not come
            for _, future in group + self._waiting:
                future.cancel()
            self._waiting = []
            self._writer = None
