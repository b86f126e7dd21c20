"""Payout schedules and amounts (P-8.4, P-8.5, P-2.4 ties, P-3.4 satellites)."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from tournament_director.domain.payouts import (
    SEED_TABLE,
    SIXTY_FIVE_THIRTY_FIVE,
    WINNER_TAKES_ALL,
    PayoutSchedule,
    default_schedule,
    large_field_paid_places,
    large_field_schedule,
    payout_amounts,
    prizes_by_player,
    satellite_prizes,
    tied_prize_shares,
)
from tournament_director.domain.ranking import RankGroup

# The seed's table, column by column, in percent (P-8.4).
SEED_PERCENTAGES = {
    (10, 30): ["50.00", "30.00", "20.00"],
    (31, 50): ["40.00", "25.00", "16.00", "11.00", "8.00"],
    (51, 75): ["32.00", "22.00", "13.50", "10.00", "7.50", "6.00", "5.00", "4.00"],
    (76, 100): ["30.00", "20.00", "12.50", "9.50", "7.50", "6.00", "5.00", "4.00", "3.00", "2.50"],
    (101, 200): ["27.00", "16.00", "10.00", "8.00", "7.00", "6.00", "5.00", "4.00", "3.00", "2.00"] + ["1.20"] * 10,
    (201, 300): ["27.00", "15.50", "10.00", "8.00", "6.00", "5.00", "4.00", "3.10", "2.30", "1.60"]
    + ["1.00"] * 10
    + ["0.75"] * 10,
}


def _bps(percent: str) -> int:
    whole, hundredths = percent.split(".")
    return int(whole) * 100 + int(hundredths)


def test_p8_4_seed_table_reproduced_exactly() -> None:
    assert {(low, high): schedule.shares_bps for low, high, schedule in SEED_TABLE} == {
        bounds: tuple(_bps(percent) for percent in column) for bounds, column in SEED_PERCENTAGES.items()
    }


@pytest.mark.parametrize(("low", "high"), list(SEED_PERCENTAGES))
def test_p8_4_default_uses_the_seed_column_for_the_field_size(low: int, high: int) -> None:
    column = tuple(_bps(percent) for percent in SEED_PERCENTAGES[(low, high)])
    assert default_schedule(low).shares_bps == column
    assert default_schedule(high).shares_bps == column


@pytest.mark.parametrize(
    ("entrants", "expected"),
    [(2, WINNER_TAKES_ALL), (5, WINNER_TAKES_ALL), (6, SIXTY_FIVE_THIRTY_FIVE), (9, SIXTY_FIVE_THIRTY_FIVE)],
)
def test_p8_4_small_fields_and_sit_and_go_default(entrants: int, expected: PayoutSchedule) -> None:
    assert default_schedule(entrants) == expected


@pytest.mark.parametrize("entrants", [301, 374, 375, 376, 450, 451, 1000, 2999, 3000])
def test_p8_4_large_field_pays_12_to_15_percent_summing_to_100(entrants: int) -> None:
    schedule = default_schedule(entrants)
    assert schedule == large_field_schedule(entrants)
    assert 10 * entrants <= 100 * schedule.paid_places <= 15 * entrants
    assert sum(schedule.shares_bps) == 10_000
    assert all(better >= worse for better, worse in pairwise(schedule.shares_bps))


def test_p8_4_large_field_places_and_bands() -> None:
    assert (large_field_paid_places(301), large_field_paid_places(375), large_field_paid_places(3000)) == (45, 45, 360)
    shares = large_field_schedule(301).shares_bps
    # Positions 1–9 individually, then bands of 9 equal shares.
    assert shares[:10] == (2278, 1140, 761, 570, 457, 381, 327, 286, 254, 168)
    assert len(set(shares[9:18])) == 1 and len(set(shares[36:45])) == 1
    assert shares[17] > shares[18]


def test_p8_4_large_field_schedule_starts_above_300() -> None:
    with pytest.raises(ValueError):
        large_field_schedule(300)


@pytest.mark.parametrize(
    ("shares", "code"),
    [
        ((), "payout_schedule_empty"),
        ((6000, 3000), "payout_shares_not_100_percent"),
        ((10_000, 0), "payout_share_not_positive"),
        ((4000, 6000), "payout_shares_increasing"),
    ],
)
def test_p8_4_schedule_sums_to_100_percent_never_increasing(shares: tuple[int, ...], code: str) -> None:
    with pytest.raises(ValidationError) as refused:
        PayoutSchedule(shares_bps=shares)
    assert refused.value.errors()[0]["type"] == code


def test_p8_5_floor_of_each_share_leftover_cents_to_first_positions() -> None:
    # €1,000.07 at 50/30/20: 50003.5 → 50003, 30002.1 → 30002, 20001.4 → 20001; 1 cent left → 1st.
    assert payout_amounts(100_007, default_schedule(20)) == (50_004, 30_002, 20_001)
    # €10.00 at 27/15.5/10/8/6/5/…/0.75: the floors (270, 155, 100, 80, 60, 50, …, 7) sum to 995; the 5 cents
    # left go one each to positions 1–5.
    amounts = payout_amounts(1_000, default_schedule(250))
    assert sum(amounts) == 1_000
    assert amounts[:6] == (271, 156, 101, 81, 61, 50)
    assert amounts[-1] == 7


@given(st.integers(0, 10**10), st.integers(2, 3000))
def test_p8_5_amounts_sum_to_the_pool(pool: int, entrants: int) -> None:
    amounts = payout_amounts(pool, default_schedule(entrants))
    assert sum(amounts) == pool
    assert all(better >= worse for better, worse in pairwise(amounts))


def test_p2_4_tied_players_share_the_prizes_of_their_positions() -> None:
    amounts = (5000, 3000, 2001)
    # Two players tied for 2nd–3rd share 3000 + 2001 = 5001: 2501 to the first listed, 2500 to the other.
    assert tied_prize_shares(amounts, RankGroup(2, ("t1-player", "t4-player"))) == (2501, 2500)
    # A tie straddling the last paid place shares it with the unpaid place: 2001 + 0.
    assert tied_prize_shares(amounts, RankGroup(3, ("a", "b", "c"))) == (667, 667, 667)
    groups = [RankGroup(1, ("w",)), RankGroup(2, ("x", "y")), RankGroup(4, ("z",))]
    assert prizes_by_player(amounts, groups) == {"w": 5000, "x": 2501, "y": 2500, "z": 0}


def test_p3_4_satellite_pays_whole_seats_and_the_rest_in_cash() -> None:
    prizes = satellite_prizes(pool_cents=45_000, seat_price_cents=11_000)
    assert (prizes.seats, prizes.cash_remainder_cents, prizes.paid_places) == (4, 1_000, 5)
    assert satellite_prizes(22_000, 11_000).paid_places == 2
