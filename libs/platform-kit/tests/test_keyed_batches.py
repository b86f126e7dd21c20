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


async def test_with_two_runners_an_item_starts_a_batch_at_once_while_one_runs_and_waits_only_when_both_do() -> None:
    """The gateway's player reads: at light load a request does not wait for a read under way (issue 14)."""
    inside: list[list[int]] = []
    entered = asyncio.Event()
    release = asyncio.Event()

    async def run(key: str, items: Sequence[int]) -> list[Outcome[int]]:
        inside.append(list(items))
        entered.set()
        await release.wait()
        return [n * 10 for n in items]

    async def until_batches(count: int) -> None:
        while len(inside) < count:
            entered.clear()
            await entered.wait()

    batches = KeyedBatches(run, runners=2)
    first = asyncio.create_task(batches.submit("k", 1))
    await until_batches(1)
    second = asyncio.create_task(batches.submit("k", 2))
    async with asyncio.timeout(10):  # generous: the second runner takes it at once when there is one
        await until_batches(2)  # the second runner took it while the first batch is still held
    later = [asyncio.create_task(batches.submit("k", n)) for n in (3, 4)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert inside == [[1], [2]], "with both runners busy, the next items wait"

    release.set()

    assert await asyncio.gather(first, second, *later) == [10, 20, 30, 40]
    assert inside[2:] == [[3, 4]], "the items that waited for a runner go together in its next batch"
    await asyncio.sleep(0)
    assert len(batches) == 0, "no runner is left once nothing waits"


def test_runners_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        KeyedBatches(Runs(), runners=0)


async def test_an_item_no_batch_took_within_its_turn_or_whose_caller_left_while_waiting_never_runs() -> None:
    """The totalizator's stakes: a stake that waited for a turn as long as a wallet call may take is left to a
    retry, never sent late (issue 14)."""
    runs = Runs()
    batches = KeyedBatches(runs)
    held = asyncio.create_task(batches.submit("held", 0))
    await runs.inside.wait()
    with pytest.raises(TimeoutError):
        await batches.submit("held", 2, turn_within=0.05)  # its only runner is busy: no turn came
    taken = asyncio.create_task(batches.submit("held", 4, turn_within=60))  # generous: taken as the runner frees
    gone = asyncio.create_task(batches.submit("held", 6, turn_within=60))
    await asyncio.sleep(0)
    gone.cancel()  # its caller went away while it waited for a turn
    runs.release.set()

    assert (await held, await taken) == ("held:0", "held:4")
    assert runs.batches == [("held", [0]), ("held", [4])], "neither the item that timed out nor the one cancelled ran"
