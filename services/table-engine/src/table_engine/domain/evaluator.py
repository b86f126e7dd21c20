"""Hand evaluation for 5, 6 and 7 cards.

We rank hands with phevaluator's C extension (a maintained, C-backed perfect-hash evaluator): one C call per
hand, no Python object per card. Its card numbering is ours (see ``cards``), and it ranks the 7,462 distinct
five-card hand values from 1 (royal flush) to 7,462 (seven-high). We flip that so that a *higher strength is a
better hand*: ``strength = 7463 - rank``, from 1 (7-5-4-3-2 offsuit) to 7,462 (royal flush). Equal strengths
tie.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from enum import IntEnum

from phevaluator import _pheval  # the C functions; the public wrappers convert every card in Python

from table_engine.domain.cards import CARD_SET

DISTINCT_HANDS = 7462
_FLIP = DISTINCT_HANDS + 1

evaluate5: Callable[[int, int, int, int, int], int] = _pheval.evaluate_5cards
evaluate6: Callable[[int, int, int, int, int, int], int] = _pheval.evaluate_6cards
evaluate7: Callable[[int, int, int, int, int, int, int], int] = _pheval.evaluate_7cards
"""The raw C functions: phevaluator rank, *lower is better*. For hot loops; everyone else uses ``evaluate``."""


class HandCategory(IntEnum):
    """The nine hand categories, in increasing order of value."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """``"three of a kind"``."""
        return self.name.lower().replace("_", " ")


# Lowest strength of each category, HIGH_CARD first (phevaluator ranks 6186, 3326, 2468, 1610, 1600, 323,
# 167, 11 and 1 flipped).
_CATEGORY_FLOORS = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)


def rank_to_strength(rank: int) -> int:
    """phevaluator rank (lower is better) -> our strength (higher is better)."""
    return _FLIP - rank


def evaluate(cards: Sequence[int]) -> int:
    """Strength of the best five-card hand in 5, 6 or 7 distinct cards: 1..7462, higher is better."""
    count = len(cards)
    if not 5 <= count <= 7 or len(set(cards)) != count or not CARD_SET.issuperset(cards):
        raise ValueError(f"evaluate needs 5, 6 or 7 distinct cards, not {cards!r}")
    if count == 7:
        return _FLIP - evaluate7(*cards)
    if count == 6:
        return _FLIP - evaluate6(*cards)
    return _FLIP - evaluate5(*cards)


def category(strength: int) -> HandCategory:
    """The category of a strength returned by ``evaluate``."""
    if not 1 <= strength <= DISTINCT_HANDS:
        raise ValueError(f"not a hand strength: {strength}")
    return HandCategory(bisect_right(_CATEGORY_FLOORS, strength) - 1)


def category_name(strength: int) -> str:
    """``"full house"``: the category of a strength, in words."""
    return category(strength).label
