"""The daily carry-over of P-11.2: a point earned d days ago is worth 0.98^d today."""

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import Award, carry_over_factor, decay, rating_on, summarize

FIVE_POINTS = 5_000_000


def exact(value: int, days: int) -> int:
    """Independent oracle: the exact product, rounded half-even by Python's round() of a Fraction."""
    return round(value * Fraction(98, 100) ** days)


def rating_after(earned: date, on: date, points: int = FIVE_POINTS) -> int:
    return rating_on(summarize("p", [Award("p", "t", earned, points)]), on)


def test_p11_2_a_point_is_worth_its_full_value_on_its_own_day_and_98_percent_the_next() -> None:
    assert rating_after(date(2024, 5, 1), date(2024, 5, 1)) == 5_000_000
    assert rating_after(date(2024, 5, 1), date(2024, 5, 2)) == 4_900_000
    assert rating_after(date(2024, 5, 1), date(2024, 5, 3)) == 4_802_000


def test_p11_2_decay_across_a_month_end_in_a_leap_year() -> None:
    # 31 January -> 1 March 2024 is 30 days (February has 29).
    assert rating_after(date(2024, 1, 31), date(2024, 3, 1)) == exact(FIVE_POINTS, 30)
    assert exact(FIVE_POINTS, 30) == 2_727_422  # 5 * 0.98^30 = 2.7274216 points


def test_p11_2_decay_across_months_of_different_lengths() -> None:
    # 15 March -> 15 July 2023: 16 + 30 + 31 + 30 + 15 = 122 days.
    assert rating_after(date(2023, 3, 15), date(2023, 7, 15)) == exact(FIVE_POINTS, 122)


def test_p11_2_decay_across_a_year_boundary() -> None:
    assert rating_after(date(2023, 12, 31), date(2024, 1, 1)) == 4_900_000
    assert rating_after(date(2023, 12, 20), date(2024, 1, 10)) == exact(FIVE_POINTS, 21)
    # A whole leap year, 2024-01-01 -> 2025-01-01, is 366 days.
    assert rating_after(date(2024, 1, 1), date(2025, 1, 1)) == exact(FIVE_POINTS, 366)


def test_p11_2_decay_far_beyond_the_precomputed_table_is_still_exact() -> None:
    assert decay(10**18, 1_000) == exact(10**18, 1_000)
    assert decay(FIVE_POINTS, 5_000) == 0


def test_p11_2_an_exact_half_micro_point_rounds_to_even() -> None:
    assert decay(25, 1) == 24  # 24.5 -> 24
    assert decay(75, 1) == 74  # 73.5 -> 74


def test_p11_2_no_carry_back_in_time() -> None:
    with pytest.raises(ValueError):
        decay(1, -1)


@given(st.integers(0, 2_000), st.integers(0, 2_000))
def test_p11_2_the_carry_over_factor_is_exactly_multiplicative_across_splits(a: int, b: int) -> None:
    assert carry_over_factor(a) * carry_over_factor(b) == carry_over_factor(a + b)
    assert carry_over_factor(a) == Fraction(49, 50) ** a


@given(st.integers(0, 10**15), st.integers(0, 800), st.integers(0, 800))
def test_p11_2_decaying_in_two_steps_matches_one_step_to_the_micro_point(value: int, a: int, b: int) -> None:
    # One rounding per step: splitting the interval can differ by at most one micro-point, never more.
    one_step = decay(value, a + b)
    assert one_step == exact(value, a + b)
    assert abs(decay(decay(value, a), b) - one_step) <= 1


@given(st.integers(0, 10**12), st.integers(0, 400), st.integers(0, 400))
def test_p11_2_querying_a_day_never_changes_the_rating_of_a_later_day(value: int, a: int, b: int) -> None:
    # The rating on D is computed from the stored summary, not from the previous day's rating:
    # asking about intermediate days (or missing a "nightly run") has no effect.
    summary = summarize("p", [Award("p", "t", date(2020, 1, 1), value)])
    intermediate = date.fromordinal(date(2020, 1, 1).toordinal() + a)
    later = date.fromordinal(intermediate.toordinal() + b)
    before = rating_on(summary, later)
    rating_on(summary, intermediate)
    assert rating_on(summary, later) == before == exact(value, a + b)
