"""Admission (issue 14, overload degrades): past the limit a use case waits its turn for a bounded time, or is
refused at once when it may not wait, with a 503 and its own code, before it runs; a place is given back however
the use case ends, so a failure never shrinks the limit."""

from __future__ import annotations

import asyncio

import pytest
from platform_kit.admission import Admission
from platform_kit.errors import Unavailable


async def test_one_past_the_limit_is_refused_with_its_code_and_runs_nothing() -> None:
    admission = Admission(2, "intake_busy", "Too many coupons.")
    ran = []
    async with admission.admit(), admission.admit():
        with pytest.raises(Unavailable) as refused:
            async with admission.admit():
                ran.append("third")
    assert (refused.value.status, refused.value.code) == (503, "intake_busy")
    assert ran == []


async def test_a_place_is_given_back_when_the_use_case_fails() -> None:
    admission = Admission(1, "busy", "Busy.")
    with pytest.raises(RuntimeError):
        async with admission.admit():
            raise RuntimeError("the use case failed")
    async with admission.admit():
        assert admission.in_flight == 1
    assert admission.in_flight == 0


async def test_past_the_limit_one_waits_its_turn_and_runs_when_a_place_frees_up() -> None:
    admission = Admission(1, "director_busy", "Busy.", wait_seconds=60)  # generous: freed at once below
    order: list[str] = []
    first_in = asyncio.Event()
    release_first = asyncio.Event()

    async def first() -> None:
        async with admission.admit():
            first_in.set()
            await release_first.wait()
            order.append("first")

    async def second() -> None:
        async with admission.admit():
            order.append("second")

    running = asyncio.create_task(first())
    await first_in.wait()
    waiting = asyncio.create_task(second())
    await asyncio.sleep(0)
    assert order == [] and admission.in_flight == 1, "the second waits while the first holds the only place"
    release_first.set()
    await asyncio.gather(running, waiting)
    assert order == ["first", "second"] and admission.in_flight == 0


async def test_one_that_waited_its_time_out_is_refused_and_ran_nothing() -> None:
    admission = Admission(1, "director_busy", "Busy.", wait_seconds=0.01)
    ran = []
    async with admission.admit():
        with pytest.raises(Unavailable) as refused:
            async with admission.admit():
                ran.append("second")
    assert (refused.value.status, refused.value.code, ran) == (503, "director_busy", [])
    async with admission.admit():
        assert admission.in_flight == 1, "the refused one took no place"
