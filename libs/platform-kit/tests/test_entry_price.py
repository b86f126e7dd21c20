"""P-8.1: the prize part of an entry's price is never less than 80% of it (the director and the wallet ask this)."""

from __future__ import annotations

import pytest
from platform_kit.rules.entry_price import prize_part_meets_floor


@pytest.mark.parametrize(
    ("prize_part", "fee"),
    [(80, 20), (40, 10), (9_000, 1_000), (500, 0), (0, 0), (4, 1)],
)
def test_p8_1_a_prize_part_of_80_percent_or_more_meets_the_floor(prize_part: int, fee: int) -> None:
    assert prize_part_meets_floor(prize_part, fee)


@pytest.mark.parametrize(
    ("prize_part", "fee"),
    [(79, 21), (799, 201), (700, 300), (0, 1), (3, 1), (39, 10)],
)
def test_p8_1_a_prize_part_below_80_percent_misses_the_floor(prize_part: int, fee: int) -> None:
    assert not prize_part_meets_floor(prize_part, fee)


def test_p8_1_the_floor_is_exact_in_cents_with_no_rounding() -> None:
    # 80% of 10001 cents is 8000.8: 8000 falls short by less than a cent, 8001 clears it.
    assert not prize_part_meets_floor(8_000, 2_001)
    assert prize_part_meets_floor(8_001, 2_000)
