"""Keyed batches (issue 14: the director's seat holds and buy-in answers per tournament): what is submitted for a
key while its batch runs goes in the next batch, each submitter gets its own outcome, and other keys are not
held up."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from platform_kit.keyed_batches import KeyedBatches, Outcome


class Runs:
    """A run that records its batches and, while `hold` is set, waits for `release` inside the first one."""

    def __init__(self) -> None:
        self.batches: list[tuple[str, list[int]]] = []
        self.inside = asyncio.Event()
        self.release = asyncio.Event()
        self.hold = True

    async def __call__(self, key: str, items: Sequence[int]) -> list[Outcome[str]]:
        self.batches.append((key, list(items)))
        if self.hold and key == "held":
            self.hold = False
            self.inside.set()
            await self.release.wait()
        return [ValueError(f"odd {n}") if n % 2 else f"{key}:{n}" for n in items]


async def test_what_comes_in_while_a_batch_runs_goes_in_the_next_one_each_with_its_own_outcome() -> None:
    runs = Runs()
    sizes: list[int] = []
    batches = KeyedBatches(runs, observe=sizes.append)
    first = asyncio.create_task(batches.submit("held", 0))
    await runs.inside.wait()
    waiting = [asyncio.create_task(batches.submit("held", n)) for n in (1, 2, 4)]
    other = await batches.submit("other", 6)  # another key's batch runs while "held" is held
    await asyncio.sleep(0)
    assert not any(task.done() for task in waiting)

    runs.release.set()

    assert (await first, other) == ("held:0", "other:6")
    assert await waiting[1] == "held:2" and await waiting[2] == "held:4"
    with pytest.raises(ValueError, match="odd 1"):
        await waiting[0]
    assert runs.batches == [("held", [0]), ("other", [6]), ("held", [1, 2, 4])]
    assert sizes == [1, 1, 3]
    assert len(batches) == 0, "no worker is left once nothing waits"


async def test_a_failed_batch_fails_each_of_its_callers_and_the_next_batch_runs() -> None:
    calls: list[list[int]] = []

    async def run(key: str, items: Sequence[int]) -> list[Outcome[int]]:
        calls.append(list(items))
        if len(calls) == 1:
            raise RuntimeError("database went away")
        return list(items)

    batches = KeyedBatches(run)
    failing = [asyncio.create_task(batches.submit("k", n)) for n in (1, 2)]
    results = await asyncio.gather(*failing, return_exceptions=True)
    assert [str(r) for r in results] == ["database went away"] * 2
    assert await batches.submit("k", 3) == 3


async def test_a_caller_cancelled_before_its_batch_starts_is_left_out_and_batches_keep_their_bound() -> None:
    runs = Runs()
    batches = KeyedBatches(runs, max_size=2)
    first = asyncio.create_task(batches.submit("held", 0))
    await runs.inside.wait()
    gone = asyncio.create_task(batches.submit("held", 2))
    rest = [asyncio.create_task(batches.submit("held", n)) for n in (4, 6, 8)]
    await asyncio.sleep(0)
    gone.cancel()
    runs.release.set()

    assert await asyncio.gather(first, *rest) == ["held:0", "held:4", "held:6", "held:8"]
    assert runs.batches == [("held", [0]), ("held", [4]), ("held", [6, 8])]


async def test_an_item_submitted_as_soon_as_the_last_batch_answered_still_runs() -> None:
    """The submitter woken by the last batch's answer sends its next item before the ended worker is dropped:
    that item must start a worker of its own, not wait for the one that ended (a sit'n'go's last registration
    waited for ever: no later registration of its tournament came to start one; capacity run)."""
    batches = KeyedBatches(Runs())
    assert await batches.submit("t", 0) == "t:0"
    async with asyncio.timeout(10):  # generous: the item runs at once when it runs at all
        assert await batches.submit("t", 2) == "t:2"  # called in the step that the first answer woke
    await asyncio.sleep(0)
    assert len(batches) == 0
