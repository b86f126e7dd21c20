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
    """`writers` groups are written at once at most (one by default): with more, a slow write (a call to another
    service) does not hold up the next group, and each group is whatever waited when a writer came free."""

    def __init__(self, flush: Flush[T, R], *, max_group: int, writers: int = 1) -> None:
        self._flush = flush
        self._max_group = max_group
        self._most_writers = writers
        self._waiting: list[_Waiting[T, R]] = []
        self._writers: set[asyncio.Task[None]] = set()

    async def submit(self, item: T, *, turn_within: float | None = None) -> R:
        """The answer to `item`, once the group it went in is written. With `turn_within`, an item no group took
        within that many seconds is taken off the queue and TimeoutError raised: it was never written."""
        waiting = _Waiting(item, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        if len(self._writers) < self._most_writers:
            self._writers.add(asyncio.create_task(self._write()))
        if turn_within is not None:
            await asyncio.wait([waiting.future], timeout=turn_within)  # never cancels the future
            if waiting in self._waiting:
                self._waiting.remove(waiting)
                waiting.future.cancel()
                raise TimeoutError(f"no group took it within {turn_within} s")
        # A caller that goes away (its client hung up) does not stop the group: the others wait for it too.
        return await asyncio.shield(waiting.future)

    async def _write(self) -> None:
        """One group at a time, until no request is waiting: while a group is written, the next one gathers."""
        group: list[_Waiting[T, R]] = []
        try:
            while self._waiting:
                group, self._waiting = self._waiting[: self._max_group], self._waiting[self._max_group :]
                try:
                    answers = await self._flush([waiting.item for waiting in group])
                except Exception as exc:  # the transaction failed: every request of the group learns why
                    answers = [exc] * len(group)
                for waiting, answer in zip(group, answers, strict=True):
                    if isinstance(answer, Exception):
                        waiting.future.set_exception(answer)
                    else:
                        waiting.future.set_result(answer)
        finally:  # stopped (the service shuts down): nobody is left waiting for an answer that will not come
            for waiting in group + self._waiting:
                waiting.future.cancel()
            self._waiting = []
            # At once, not by a done callback: a request arriving meanwhile would find no writer free to take it.
            self._writers.discard(asyncio.current_task())


class _Waiting(Generic[T, R]):
    """An item and its answer to come; compared by identity (two requests may carry equal items)."""

    __slots__ = ("future", "item")

    def __init__(self, item: T, future: asyncio.Future[R]) -> None:
        self.item = item
        self.future = future
