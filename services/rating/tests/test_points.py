"""Points from a finished tournament (P-11.1, P-11.8, P-2.4)."""

from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import (
    Award,
    Finish,
    InvalidTournamentResult,
    TournamentResult,
    award_day,
    awards_for,
    tournament_points,
)

DAY = date(2024, 3, 10)


def result(finishes: tuple[Finish, ...], entries: int = 10_000, **extra: int) -> TournamentResult:
    return TournamentResult("t-1", DAY, entries, finishes, **extra)


def test_p11_1_worked_example_pool_100_euros_4th_place_is_5_points() -> None:
    assert tournament_points(10_000, 4) == 5_000_000


def test_p11_1_winner_of_100_euros_gets_10_points_and_irrationals_round_to_the_micro_point() -> None:
    assert tournament_points(10_000, 1) == 10_000_000
    assert tournament_points(10_000, 2) == 7_071_068  # 7.0710678118...
    assert tournament_points(10_000, 3) == 5_773_503  # 5.7735026918...


@given(st.integers(0, 3_000 * 10_000), st.integers(1, 3_000))
def test_p11_1_points_are_the_exact_formula_rounded_to_the_nearest_micro_point(pool: int, pos: int) -> None:
    points = Fraction(tournament_points(pool, pos), 1_000_000)
    exact_squared = Fraction(pool, 100 * pos)
    half_micro = Fraction(1, 2_000_000)
    assert max(points - half_micro, Fraction(0)) ** 2 <= exact_squared <= (points + half_micro) ** 2


@given(st.integers(1, 10**7), st.integers(1, 2_999))
def test_p11_1_better_positions_never_earn_fewer_points(pool: int, position: int) -> None:
    assert tournament_points(pool, position) >= tournament_points(pool, position + 1)


def test_p11_8_rebuys_and_addons_count_in_the_pool() -> None:
    # EUR 60 of entries + 30 of rebuys + 10 of add-ons = EUR 100: the winner gets sqrt(100) = 10 points.
    finished = result((Finish("a", 1), Finish("b", 2)), entries=6_000, rebuys_cents=3_000, addons_cents=1_000)
    assert finished.rating_pool_cents == 10_000
    assert awards_for(finished)[0].points == 10_000_000


def test_p11_1_the_guarantee_is_no_input_so_its_overlay_cannot_count() -> None:
    # A EUR 1000 guarantee over EUR 100 of entries still rates EUR 100: the type has no guarantee field.
    assert "guarantee" not in " ".join(TournamentResult.__dataclass_fields__)


def test_p11_1_awards_for_every_finisher_on_the_tournament_day() -> None:
    awards = awards_for(result((Finish("a", 1), Finish("b", 2), Finish("c", 3), Finish("d", 4))))
    assert awards[3] == Award("d", "t-1", DAY, 5_000_000)
    assert [a.player_id for a in awards] == ["a", "b", "c", "d"]


def test_p2_4_players_tied_over_positions_share_their_points_equally() -> None:
    # Tied over 2nd and 3rd: each gets the mean of 7.071068 and 5.773503, half-even -> 6.422286.
    awards = awards_for(result((Finish("a", 1), Finish("b", 2, 2), Finish("c", 2, 2), Finish("d", 4))))
    assert awards[1].points == awards[2].points == 6_422_286
    assert awards[3].points == 5_000_000


def test_p11_1_a_pool_of_zero_gives_zero_points_but_an_award_all_the_same() -> None:
    awards = awards_for(result((Finish("a", 1),), entries=0))
    assert awards == (Award("a", "t-1", DAY, 0),)


@pytest.mark.parametrize(
    "finishes",
    [
        (),
        (Finish("a", 1), Finish("b", 3)),  # gap
        (Finish("a", 1), Finish("b", 1)),  # two winners without a tie group
        (Finish("a", 1), Finish("b", 2, 2)),  # tie group of two reported by one player
        (Finish("a", 1), Finish("a", 2)),  # same player twice
        (Finish("a", 0),),
    ],
)
def test_p2_1_positions_must_run_from_1_to_n(finishes: tuple[Finish, ...]) -> None:
    with pytest.raises(InvalidTournamentResult):
        awards_for(result(finishes))


def test_p11_1_negative_pool_is_refused() -> None:
    with pytest.raises(InvalidTournamentResult):
        awards_for(result((Finish("a", 1),), entries=-1))


def test_p11_2_rating_day_is_the_finish_date_in_the_platform_zone() -> None:
    rome_winter = timezone(timedelta(hours=1))
    # 23:30 UTC on 10 March is 00:30 on 11 March in Rome.
    assert award_day(datetime(2024, 3, 10, 23, 30, tzinfo=UTC), rome_winter) == date(2024, 3, 11)
    with pytest.raises(ValueError):
        award_day(datetime(2024, 3, 10, 23, 30), rome_winter)
