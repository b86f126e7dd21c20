"""Admission (issue 14, overload degrades): past the limit a use case is refused at once with a 503 and its own
code, before it runs; a place is given back however the use case ends, so a failure never shrinks the limit."""

from __future__ import annotations

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
