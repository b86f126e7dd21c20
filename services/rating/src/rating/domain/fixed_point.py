"""Integer fixed-point arithmetic for rating points, exact and reproducible bit for bit on any machine.

Points are integer micro-points: 1 point = 1_000_000 micro-points. A value that is not exactly
representable is rounded once, to the nearest micro-point, ties to even (unbiased over many awards).
No float is involved anywhere, so every process computes the same integers.
"""

import math
from decimal import Decimal

MICRO_PER_POINT = 1_000_000


def div_round_half_even(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to the nearest integer, ties to even."""
    if denominator <= 0:
        raise ValueError("the denominator must be positive")
    quotient, remainder = divmod(numerator, denominator)
    twice = 2 * remainder
    if twice > denominator or (twice == denominator and quotient % 2 == 1):
        quotient += 1
    return quotient


def sqrt_round_half_even(numerator: int, denominator: int) -> int:
    """sqrt(numerator / denominator) rounded to the nearest integer, ties to even, computed exactly."""
    if numerator < 0 or denominator <= 0:
        raise ValueError("need a non-negative numerator and a positive denominator")
    # floor(sqrt(x)) == isqrt(floor(x)) for real x >= 0, since k*k <= x <=> k*k <= floor(x) for integer k.
    root = math.isqrt(numerator // denominator)
    # Round up when x exceeds (root + 1/2)^2, i.e. when 4 * numerator > denominator * (2 * root + 1)^2.
    above = 4 * numerator - denominator * (2 * root + 1) ** 2
    if above > 0 or (above == 0 and root % 2 == 1):
        root += 1
    return root


def to_points(micro_points: int) -> Decimal:
    """The exact decimal number of points, e.g. for an API response: 5_000_000 -> Decimal('5.000000')."""
    return Decimal(micro_points).scaleb(-6)
