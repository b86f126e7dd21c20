"""The daily carry-over of P-11.2: every day starts with 98% of the previous day's rating.

A point earned on day d is worth exactly 0.98^(D - d) on day D (it is worth 1 on day d itself). The factor
0.98^n = 49^n / 50^n is applied exactly and the product rounded once to the micro-point (half-even), so
decaying never accumulates error day by day and needs no nightly job: any day's value is computed on demand.
"""

from fractions import Fraction
from functools import lru_cache

from .fixed_point import div_round_half_even

DAILY_CARRY_OVER = Fraction(49, 50)

# Powers for the first days are precomputed: an active player's last award is always less than
# ACTIVITY_WINDOW_DAYS (360) days old, so ranking a day's active players never leaves this table.
_TABLE_DAYS = 400
_NUMERATORS = [49**n for n in range(_TABLE_DAYS)]
_DENOMINATORS = [50**n for n in range(_TABLE_DAYS)]


@lru_cache(maxsize=1024)
def _powers_beyond_table(days: int) -> tuple[int, int]:
    return 49**days, 50**days


def carry_over_factor(days: int) -> Fraction:
    """0.98^days, exactly."""
    numerator, denominator = _powers(days)
    return Fraction(numerator, denominator)


def decay(value: int, days: int) -> int:
    """`value` micro-points carried over `days` days: round_half_even(value * 0.98^days)."""
    numerator, denominator = _powers(days)
    return div_round_half_even(value * numerator, denominator)


def _powers(days: int) -> tuple[int, int]:
    if days < 0:
        raise ValueError("cannot carry a rating back in time")
    if days < _TABLE_DAYS:
        return _NUMERATORS[days], _DENOMINATORS[days]
    return _powers_beyond_table(days)
