"""Work handed in for one key, run in batches: whatever arrived while the last batch ran goes in the next one.

    holds = KeyedBatches(hold_seats)          # hold_seats(tournament_id, requests) -> a result per request
    result = await holds.submit(tournament_id, request)

Used where many callers do the same small transaction on one hot row (the director's seat holds and buy-in
answers per tournament): each transaction locks the row for all of its round trips, so callers one at a time go
at the pace of those round trips, however many wait. In a batch the row is locked once and the work of every
caller is written in a few statements; under light load a batch is one caller, at the same cost as before.

With `runners` above one, that many batches of a key run at once at most: an item submitted while a runner is
free starts a batch at once, and only when all are busy does it wait to go in the next one. One runner suits work
that locks one row (a second batch would only wait for the lock); several suit reads, where waiting for a batch
under way costs a caller more than a read of its own (the gateway's player reads).

A key's runner is a task started by the submission that found fewer than `runners`, so it runs in that caller's
context (its correlation id is on the batch's log lines).

Invariant: for one key at most `runners` batches run at a time in a process (a runner task each, alive while
work waits); a batch takes only items submitted before it began; every item submitted gets its own result or its
own exception, or the batch's exception when the batch as a whole failed. Items are taken in the order
submitted, at most `max_size` per batch.

Crash behaviour: what a batch does is the run's own affair (one unit of work: all or nothing). A caller
cancelled while it waits leaves its item to run anyway unless its batch has not started — a run that outlives
its caller is what a caller's crash after submitting would leave too, so the run must be safe to do unasked
(the director's holds are: a step nobody drives is the money worker's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

__all__ = ["KeyedBatches", "Outcome"]

Item = TypeVar("Item")
Result = TypeVar("Result")

#: A run's answer for one item: its result, or the exception its caller raises.
Outcome: TypeAlias = Result | BaseException


@dataclass(eq=False)  # compared by identity: two callers may submit equal items
class _Waiting(Generic[Item, Result]):
    item: Item
    answer: asyncio.Future[Result]


class KeyedBatches(Generic[Item, Result]):
    """`run(key, items)` returns one outcome per item, in order; raising fails the whole batch."""

    def __init__(
        self,
        run: Callable[[str, Sequence[Item]], Awaitable[Sequence[Result | BaseException]]],
        *,
        max_size: int = 200,
        runners: int = 1,
        observe: Callable[[int], None] = lambda size: None,
    ) -> None:
        """`runners`: batches of one key run at once at most; `observe` is given each batch's size (a metric's)."""
        if runners < 1:
            raise ValueError(f"runners must be at least 1, not {runners}")
        self._run = run
        self._max_size = max_size
        self._most_runners = runners
        self._observe = observe
        self._waiting: dict[str, list[_Waiting[Item, Result]]] = {}
        self._runners: dict[str, set[asyncio.Task[None]]] = {}

    async def submit(self, key: str, item: Item, *, turn_within: float | None = None) -> Result:
        """`item`'s outcome, once a batch of `key` ran it (its exception raised here). With `turn_within`, an item
        no batch took within that many seconds is taken off the queue and TimeoutError raised: it never ran."""
        waiting = _Waiting[Item, Result](item, asyncio.get_running_loop().create_future())
        queue = self._waiting.setdefault(key, [])
        queue.append(waiting)
        runners = self._runners.setdefault(key, set())
        if len(runners) < self._most_runners:
            runner = asyncio.create_task(self._drain(key), name=f"batches:{key}")
            runners.add(runner)
            runner.add_done_callback(lambda ended: self._drop(key, ended))
        if turn_within is not None:
            try:
                await asyncio.wait([waiting.answer], timeout=turn_within)  # never cancels the answer itself
            except asyncio.CancelledError:
                waiting.answer.cancel()  # as for a caller cancelled below: left out unless its batch began
                raise
            queue = self._waiting.get(key, [])
            if waiting in queue:
                queue.remove(waiting)
                waiting.answer.cancel()
                raise TimeoutError(f"no batch took it within {turn_within} s")
        return await waiting.answer

    def _drop(self, key: str, runner: asyncio.Task[Any] | None) -> None:
        """Forget a runner (at once when it runs out of work; by its done callback when cancelled or failed)."""
        runners = self._runners.get(key, set())
        runners.discard(runner)
        if not runners:
            self._runners.pop(key, None)

    async def _drain(self, key: str) -> None:
        """Run the key's batches while items wait; the runner ends (and is dropped) when none are left."""
        while True:
            queue = self._waiting.get(key, [])
            batch = [waiting for waiting in queue[: self._max_size] if not waiting.answer.cancelled()]
            del queue[: self._max_size]
            if not queue:
                self._waiting.pop(key, None)
            if not batch:
                if key not in self._waiting:
                    # Dropped in the same step as the last look at the queue: an item submitted from now on
                    # starts a runner of its own. (Dropped by the task's done callback, a step later, the runner
                    # let an item submitted in between wait for ever: a task that runs before that callback, such
                    # as the submitter the last answer woke, found it still counted.)
                    self._drop(key, asyncio.current_task())
                    return
                continue
            self._observe(len(batch))
            try:
                outcomes = await self._run(key, [waiting.item for waiting in batch])
            except Exception as error:  # the whole batch failed: every caller learns why
                outcomes = [error] * len(batch)
            except asyncio.CancelledError:  # the process is stopping: nobody is left waiting for nothing
                for waiting in batch + self._waiting.pop(key, []):
                    waiting.answer.cancel()
                raise
            assert len(outcomes) == len(batch), f"{len(outcomes)} outcomes for {len(batch)} items"
            for waiting, outcome in zip(batch, outcomes, strict=True):
                if waiting.answer.done():
                    continue  # its caller stopped waiting
                if isinstance(outcome, BaseException):
                    waiting.answer.set_exception(outcome)
                else:
                    waiting.answer.set_result(outcome)

    def __len__(self) -> int:
        """Keys with work waiting or running."""
        return len(self._runners)
