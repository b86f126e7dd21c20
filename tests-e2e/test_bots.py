"""The e2e bots' decisions: always legal, and wary of calls that risk much of their stack (so that tournaments
last as long as their blind clocks, whatever the machine's speed). Fast; no server needed."""

from __future__ import annotations

import random

from harness.bots import decide
from hypothesis import given
from hypothesis import strategies as st


@st.composite
def requests(draw: st.DrawFn) -> dict[str, object]:
    call = draw(st.integers(min_value=0, max_value=5_000))
    can_raise = draw(st.booleans())
    low = call + draw(st.integers(min_value=1, max_value=1_000))
    return {
        "can_check": call == 0,
        "call_amount": call,
        "min_raise_to": low if can_raise else None,
        "max_raise_to": low + draw(st.integers(min_value=0, max_value=10_000)) if can_raise else None,
    }


@given(requests(), st.integers())
def test_p1_2_a_bot_only_takes_actions_the_request_offers(request: dict[str, object], seed: int) -> None:
    decision = decide(request, random.Random(seed))
    if request["can_check"]:
        assert decision.action in ("check", "bet")
    else:
        assert decision.action in ("fold", "call", "raise")
    if decision.amount is not None:
        assert isinstance(request["min_raise_to"], int) and isinstance(request["max_raise_to"], int)
        assert request["min_raise_to"] <= decision.amount <= request["max_raise_to"]


def test_a_bot_mostly_folds_to_an_all_in_and_mostly_calls_a_small_bet() -> None:
    rng = random.Random(7)
    all_in = {"can_check": False, "call_amount": 900, "min_raise_to": None, "max_raise_to": None}
    small = {"can_check": False, "call_amount": 40, "min_raise_to": 80, "max_raise_to": 1_000}
    folds_to_all_in = sum(decide(all_in, rng).action == "fold" for _ in range(1_000))
    folds_to_small = sum(decide(small, rng).action == "fold" for _ in range(1_000))
    assert folds_to_all_in > 700
    assert folds_to_small < 300
