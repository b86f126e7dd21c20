"""Keyed locks (issue 14: the totalizator's transfer runs per draw): holders of one key run one at a time in a
process; other keys' holders are not held up; a key's lock lives only while it is used."""

from __future__ import annotations

import asyncio

from platform_kit.keyed_locks import KeyedLocks


async def test_holders_of_one_key_run_one_at_a_time_and_other_keys_are_not_held_up() -> None:
    locks = KeyedLocks()
    inside: list[str] = []
    overlaps: list[tuple[str, ...]] = []
    first_in = asyncio.Event()
    let_first_go = asyncio.Event()

    async def hold(tournament: str, name: str, wait_for: asyncio.Event | None = None) -> None:
        async with locks.holding(tournament):
            inside.append(name)
            overlaps.append(tuple(inside))
            if wait_for is not None:
                first_in.set()
                await wait_for.wait()
            inside.remove(name)

    first = asyncio.create_task(hold("t-1", "a", let_first_go))
    await first_in.wait()
    same = asyncio.create_task(hold("t-1", "b"))
    await hold("t-2", "c")  # another key's holder goes through while "a" holds t-1
    await asyncio.sleep(0)
    assert not same.done(), "a second hold of t-1 waits while the first holds it"
    let_first_go.set()
    await asyncio.gather(first, same)
    assert overlaps == [("a",), ("a", "c"), ("b",)]
    assert len(locks) == 0, "no lock is kept once nobody holds or waits"


async def test_a_holder_that_fails_or_a_waiter_cancelled_leaves_the_lock_usable() -> None:
    locks = KeyedLocks()
    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.holding("t-1"):
            entered.set()
            await release.wait()
            raise RuntimeError("the hold failed")

    running = asyncio.create_task(holder())
    await entered.wait()

    async def waiter() -> None:
        async with locks.holding("t-1"):
            raise AssertionError("a cancelled waiter never runs")

    cancelled = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    cancelled.cancel()
    release.set()
    results = await asyncio.gather(running, cancelled, return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and isinstance(results[1], asyncio.CancelledError)
    async with locks.holding("t-1"):
        assert len(locks) == 1
    assert len(locks) == 0
