"""On SQLite a process's write transactions take turns before they begin (`platform_kit.sqlite_writers`): one waiting
for the write lock waits in the event loop, holding no connection, and begins as soon as the one before it has
committed, in the order they came; not in SQLite's busy handler, which sleeps and retries (issue 14)."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from platform_kit.db import Database
from platform_kit.sqlite_writers import WriteTurns
from sqlalchemy import text

#: Seconds a test gives the waiting writers to get as far as they can while the first holds the lock: long
#: enough for writers left to SQLite to take their connections; waiting for their turn, they take none however long.
SETTLE_SECONDS = 0.3


async def test_writers_waiting_for_the_lock_hold_no_connection_and_begin_in_the_order_they_came(
    tmp_path: Path,
) -> None:
    """Left to SQLite, each waiting writer checked a connection out of the pool and slept in `BEGIN IMMEDIATE`."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/turns.db")
    began: list[int] = []
    first_holds_the_lock, first_may_commit = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with db.transaction() as session:
            await session.execute(text("INSERT INTO t VALUES (-1)"))
            first_holds_the_lock.set()
            await first_may_commit.wait()

    async def writer(n: int) -> None:
        async with db.transaction() as session:
            began.append(n)
            await session.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})

    try:
        async with db.transaction() as session:
            await session.execute(text("CREATE TABLE t (n INTEGER)"))
        holder = asyncio.create_task(first())
        await first_holds_the_lock.wait()
        writers = [asyncio.create_task(writer(n)) for n in range(20)]
        done, _ = await asyncio.wait(writers, timeout=SETTLE_SECONDS)
        held_meanwhile = db.engine.pool.checkedout()  # type: ignore[attr-defined]
        first_may_commit.set()
        await asyncio.gather(holder, *writers)
        async with db.sessions() as reader:
            rows = await reader.scalar(text("SELECT count(*) FROM t"))
    finally:
        await db.dispose()
    assert (done, held_meanwhile) == (set(), 1)
    assert began == list(range(20))
    assert rows == 21


async def test_a_transaction_that_fails_gives_up_its_turn() -> None:
    turns = WriteTurns(wait_seconds=60)
    with pytest.raises(RuntimeError):
        async with turns.turn():
            raise RuntimeError("the transaction failed")
    # A turn kept would be waited for the whole 60 s; 5 s is room for a loaded machine.
    async with asyncio.timeout(5), turns.turn():
        pass


@asynccontextmanager
async def turn_held_by_another_task(turns: WriteTurns) -> AsyncIterator[asyncio.Task[None]]:
    """Another task holds a turn for the block (the task is given); it gives the turn back as the block ends."""
    holding, may_end = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with turns.turn():
            holding.set()
            await may_end.wait()

    task = asyncio.create_task(holder())
    await holding.wait()
    try:
        yield task
    finally:
        may_end.set()
        await task


async def test_a_writer_that_waited_longer_than_its_limit_goes_on_without_its_turn() -> None:
    """Left waiting, a transaction that awaits another writer of its own process would wait for ever; after the
    limit SQLite's own lock orders it, as before turns."""
    turns = WriteTurns(wait_seconds=0.05)
    went_on = asyncio.Event()

    async def latecomer() -> None:
        async with turns.turn():
            went_on.set()

    async with turn_held_by_another_task(turns) as holder:
        async with asyncio.timeout(5):  # far above the 0.05 s limit, for a loaded machine
            await latecomer()
        assert went_on.is_set() and not holder.done()
    async with asyncio.timeout(5), turns.turn():  # the holder's turn was given back
        pass


async def test_a_writer_cancelled_while_it_waits_leaves_the_line_and_takes_no_turn() -> None:
    """A service stopping cancels its relay wherever it waits: the cancellation goes through, and the turn goes to
    the next writer when the holder ends, not to the cancelled one."""
    turns = WriteTurns(wait_seconds=60)

    async def waiter() -> None:
        async with turns.turn():
            raise AssertionError("a cancelled writer took its turn")

    async with turn_held_by_another_task(turns):
        waiting = asyncio.create_task(waiter())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    async with asyncio.timeout(5), turns.turn():  # a turn taken by the cancelled writer would be waited for 60 s
        pass
