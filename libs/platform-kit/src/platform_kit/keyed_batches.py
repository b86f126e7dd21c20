"""Work handed in for one key, run in batches: whatever arrived while the last batch ran goes in the next one.

    holds = KeyedBatches(hold_seats)          # hold_seats(tournament_id, requests) -> a result per request
    result = await holds.submit(tournament_id, request)

Used where many callers do the same small transaction on one hot row (the director's seat holds and buy-in
answers per tournament): each transaction locks the row for all of its round trips, so callers one at a time go
at the pace of those round trips, however many wait. In a batch the row is locked once and the work of every
caller is written in a few statements; under light load a batch is one caller, at the same cost as before.

A key's worker is a task started by the submission that found none, so it runs in that caller's context (its
correlation id is on the batch's log lines).

Invariant: for one key at most one batch runs at a time in a process (a worker task per key, alive while work
waits); every item submitted gets its own result or its own exception, or the batch's exception when the batch
as a whole failed. Items are taken in the order submitted, at most `max_size` per batch.

Crash behaviour: what a batch does is the run's own affair (one unit of work: all or nothing). A caller
cancelled while it waits leaves its item to run anyway unless its batch has not started — a run that outlives
its caller is what a caller's crash after submitting would leave too, so the run must be safe to do unasked
(the director's holds are: a step nobody drives is the money worker's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

__all__ = ["KeyedBatches", "Outcome"]

Item = TypeVar("Item")
Result = TypeVar("Result")

#: A run's answer for one item: its result, or the exception its caller raises.
Outcome: TypeAlias = Result | BaseException


@dataclass
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
        observe: Callable[[int], None] = lambda size: None,
    ) -> None:
        """`observe` is given each batch's size (a metric's)."""
        self._run = run
        self._max_size = max_size
        self._observe = observe
        self._waiting: dict[str, list[_Waiting[Item, Result]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    async def submit(self, key: str, item: Item) -> Result:
        """`item`'s outcome, once a batch of `key` ran it (its exception raised here)."""
        waiting = _Waiting[Item, Result](item, asyncio.get_running_loop().create_future())
        self._waiting.setdefault(key, []).append(waiting)
        if key not in self._workers:
            worker = asyncio.create_task(self._drain(key), name=f"batches:{key}")
            self._workers[key] = worker
            worker.add_done_callback(lambda ended: self._drop(key, ended))
        return await waiting.answer

    def _drop(self, key: str, worker: asyncio.Task[None]) -> None:
        """A worker that ended otherwise than by running out of work (cancelled, or failed) is dropped."""
        if self._workers.get(key) is worker:
            del self._workers[key]

    async def _drain(self, key: str) -> None:
        """Run the key's batches while items wait; the worker ends (and is dropped) when none are left."""
        while True:
            queue = self._waiting.get(key, [])
            batch = [waiting for waiting in queue[: self._max_size] if not waiting.answer.cancelled()]
            del queue[: self._max_size]
            if not queue:
                self._waiting.pop(key, None)
            if not batch:
                if key not in self._waiting:
                    # Dropped in the same step as the last look at the queue: an item submitted from now on
                    # starts a worker of its own. (Dropped by the task's done callback, a step later, the worker
                    # let an item submitted in between wait for ever: a task that runs before that callback, such
                    # as the submitter the last answer woke, found it still listed.)
                    del self._workers[key]
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
        return len(self._workers)
