"""The prize structure: how the pool and the jackpot are shared, by number of void matches (T-3 to T-6).

Shares are exact fractions. "Right" counts only the valid matches (T-5.4), and every share is taken by the
bets with at least `min_right` right (categories are cumulative, T-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ORGANIZER_SHARE = Fraction(5, 100)  # T-1.1
PRIZE_FUND_SHARE = 1 - ORGANIZER_SHARE  # T-1.1
MIN_RIGHT_TO_WIN = 2  # T-1.2
UNWON_TO_TOP_CATEGORY = Fraction(30, 100)  # T-3.2; the rest of an unwon fund goes to the next jackpot
MIN_COEFFICIENT = Fraction(12, 10)  # T-6.2
MAX_VOID_MATCHES = 2  # T-5.5: with more, the draw is not played and every bet is refunded


@dataclass(frozen=True, slots=True)
class Share:
    """`share` of the pool (a category) or of the jackpot, for the bets with at least `min_right` right."""

    min_right: int
    share: Fraction


def _shares(*pairs: tuple[int, int]) -> tuple[Share, ...]:
    return tuple(Share(min_right, Fraction(percent, 100)) for min_right, percent in pairs)


# Categories in order 1, 2, ...: the most matches right first. Each table sums to the prize fund, 95%.
CATEGORIES: dict[int, tuple[Share, ...]] = {
    0: _shares((8, 5), (7, 5), (6, 10), (5, 10), (4, 15), (3, 20), (2, 30)),  # T-3
    1: _shares((7, 5), (6, 5), (5, 10), (4, 10), (3, 15), (2, 50)),  # T-5.2
    2: _shares((6, 5), (5, 5), (4, 10), (3, 10), (2, 65)),  # T-5.3
}

# Parts of the jackpot played, each among the bets with at least `min_right` right; the rest carries over.
JACKPOT_PARTS: dict[int, tuple[Share, ...]] = {
    0: _shares((8, 95), (7, 5)),  # T-4.2
    1: _shares((7, 25)),  # T-5.2: only bets with all 7 valid matches right
    2: (),  # T-5.3: no jackpot is played
}
