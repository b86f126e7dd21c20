"""A bot's decision: a random legal action for a `table.action.requested` message (pure).

Legal means what the request offers: checking when it is free (folding then would be refused), otherwise
folding or calling; betting or raising only when `min_raise_to` is set, to a total between `min_raise_to` and
`max_raise_to` inclusive, small sizes more likely than large ones.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Decision:
    action: str  # fold | check | call | bet | raise
    amount: int | None = None  # bets and raises: the total the bet becomes


def choose(request: Mapping[str, Any], rng: random.Random, *, aggression: float = 0.2) -> Decision:
    """`aggression`: the chance of betting or raising when allowed."""
    low, high = request.get("min_raise_to"), request.get("max_raise_to")
    may_raise = isinstance(low, int) and isinstance(high, int) and low <= high
    if may_raise and rng.random() < aggression:
        assert isinstance(low, int) and isinstance(high, int)
        amount = low + int((high - low) * rng.random() ** 3)  # mostly near the minimum, all-in now and then
        return Decision("bet" if request.get("can_check") else "raise", amount)
    if request.get("can_check"):
        return Decision("check")
    return Decision("fold") if rng.random() < 0.2 else Decision("call")
