"""Integer fixed-point helpers: the exactness every rating rule relies on (P-11.1, P-11.2)."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain.fixed_point import div_round_half_even, sqrt_round_half_even, to_points


@pytest.mark.parametrize(
    ("numerator", "denominator", "expected"),
    [(5, 2, 2), (7, 2, 4), (3, 2, 2), (-5, 2, -2), (-7, 2, -4), (49, 100, 0), (51, 100, 1), (0, 7, 0)],
)
def test_division_rounds_half_to_even(numerator: int, denominator: int, expected: int) -> None:
    assert div_round_half_even(numerator, denominator) == expected


@given(st.integers(-(10**30), 10**30), st.integers(1, 10**20))
def test_division_matches_exact_rational_rounding(numerator: int, denominator: int) -> None:
    # Python's round() of a Fraction rounds half to even: an independent oracle.
    assert div_round_half_even(numerator, denominator) == round(Fraction(numerator, denominator))


@given(st.integers(0, 10**40), st.integers(1, 10**6))
def test_square_root_is_the_nearest_integer(numerator: int, denominator: int) -> None:
    root = sqrt_round_half_even(numerator, denominator)
    x = Fraction(numerator, denominator)
    # |root - sqrt(x)| <= 1/2 and no other integer is closer, checked without any float.
    assert (Fraction(2 * root - 1, 2)) ** 2 <= x or root == 0
    assert x <= (Fraction(2 * root + 1, 2)) ** 2


def test_square_root_exact_half_goes_to_even() -> None:
    # sqrt(25/4) = 2.5 -> 2 ; sqrt(49/4) = 3.5 -> 4
    assert sqrt_round_half_even(25, 4) == 2
    assert sqrt_round_half_even(49, 4) == 4
    assert sqrt_round_half_even(10**12, 1) == math.isqrt(10**12)


def test_micro_points_display_as_exact_decimals() -> None:
    assert str(to_points(5_000_000)) == "5.000000"
    assert str(to_points(1)) == "0.000001"
