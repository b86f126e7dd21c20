"""Cent splitting (P-8.5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_director.domain.money import allocate, split_equally


def test_p8_5_floors_then_leftover_cents_one_each_from_the_first() -> None:
    # 100 cents in thirds: 33.33 each → 33, 33, 33 and the leftover cent to the first.
    assert allocate(100, [1, 1, 1]) == [34, 33, 33]


def test_p8_5_proportional_shares_are_floored() -> None:
    # 1001 × 5000/10000 = 500.5 → 500; × 3000 = 300.3 → 300; × 2000 = 200.2 → 200; 1 left → 1st.
    assert allocate(1001, [5000, 3000, 2000]) == [501, 300, 200]


def test_p8_5_leftover_skips_zero_weights() -> None:
    assert allocate(5, [0, 1, 1]) == [0, 3, 2]


def test_nothing_to_split_gives_zeros_even_without_weights() -> None:
    assert allocate(0, [0, 0]) == [0, 0]


@pytest.mark.parametrize(("total", "weights"), [(-1, [1]), (5, [0, 0]), (5, [1, -1])])
def test_refuses_negative_amounts_weights_or_all_zero_weights(total: int, weights: list[int]) -> None:
    with pytest.raises(ValueError):
        allocate(total, weights)


@given(st.integers(0, 10**9), st.lists(st.integers(0, 10**6), min_size=1, max_size=50))
def test_p8_5_never_creates_or_loses_a_cent(total: int, weights: list[int]) -> None:
    if sum(weights) == 0:
        weights = [*weights, 1]
    shares = allocate(total, weights)
    assert sum(shares) == total
    for share, weight in zip(shares, weights, strict=True):
        exact_floor = total * weight // sum(weights)
        assert share - exact_floor in (0, 1)


def test_p8_5_split_equally_leftover_to_the_first() -> None:
    assert split_equally(10, 4) == [3, 3, 2, 2]
