"""Per-player rating summaries: incremental, exactly once, a pure function of the awards (P-11.2)."""

import random
from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import (
    Award,
    AwardOutOfOrder,
    ConflictingAward,
    RatingSummary,
    SummaryAfterDay,
    apply_award,
    is_new_award,
    rating_as_of,
    rating_on,
    summarize,
)

START = date(2023, 11, 1)


def award(tournament: str, day: date, points: int, player: str = "p") -> Award:
    return Award(player, tournament, day, points)


def record(summary: RatingSummary, recorded: dict[str, Award], incoming: Award) -> RatingSummary:
    """The service flow of domain/__init__.py, with a dict standing for the award table."""
    if not is_new_award(recorded.get(incoming.tournament_id), incoming):
        return summary
    recorded[incoming.tournament_id] = incoming
    try:
        return apply_award(summary, incoming)
    except AwardOutOfOrder:
        return summarize(summary.player_id, recorded.values())


awards_strategy = st.lists(
    st.builds(
        lambda day, points: (day, points),
        st.integers(0, 800),
        st.integers(0, 600_000_000),
    ),
    max_size=25,
).map(lambda rows: [award(f"t{i}", START + timedelta(days=d), p) for i, (d, p) in enumerate(rows)])


def test_p11_2_ratings_add_and_carry_over_day_by_day() -> None:
    awards = [award("t1", date(2024, 1, 1), 10_000_000), award("t2", date(2024, 1, 3), 5_000_000)]
    summary = summarize("p", awards)
    assert summary == RatingSummary("p", date(2024, 1, 3), 9_604_000 + 5_000_000)
    assert rating_on(summary, date(2024, 1, 4)) == 14_311_920  # 14.604 * 0.98


def test_p11_2_awards_of_the_same_day_simply_add() -> None:
    day = date(2024, 2, 29)
    summary = summarize("p", [award("a", day, 3), award("b", day, 4)])
    assert summary == RatingSummary("p", day, 7)


def test_p11_4_a_player_without_awards_has_no_last_day_and_rates_zero() -> None:
    assert summarize("p", []) == RatingSummary("p")
    assert rating_on(RatingSummary("p"), date(2024, 1, 1)) == 0


def test_p11_2_the_same_tournament_is_applied_exactly_once() -> None:
    first = award("t1", date(2024, 1, 1), 5_000_000)
    assert is_new_award(None, first)
    assert not is_new_award(first, first)
    assert summarize("p", [first, first]) == summarize("p", [first])
    recorded: dict[str, Award] = {}
    once = record(RatingSummary("p"), recorded, first)
    assert record(once, recorded, first) == once


def test_p11_2_a_conflicting_repeat_of_a_tournament_is_refused() -> None:
    first = award("t1", date(2024, 1, 1), 5_000_000)
    with pytest.raises(ConflictingAward):
        is_new_award(first, award("t1", date(2024, 1, 1), 6_000_000))
    with pytest.raises(ConflictingAward):
        summarize("p", [first, award("t1", date(2024, 1, 2), 5_000_000)])


def test_p11_2_a_late_award_asks_for_a_rebuild_instead_of_guessing() -> None:
    summary = summarize("p", [award("t2", date(2024, 1, 5), 1_000_000)])
    with pytest.raises(AwardOutOfOrder):
        apply_award(summary, award("t1", date(2024, 1, 4), 1_000_000))


def test_p11_2_awards_of_another_player_are_refused() -> None:
    with pytest.raises(ValueError):
        apply_award(RatingSummary("p"), award("t", START, 1, player="q"))
    with pytest.raises(ValueError):
        summarize("p", [award("t", START, 1, player="q")])


def test_p11_2_a_summary_cannot_answer_for_a_day_before_its_last_award() -> None:
    summary = summarize("p", [award("t1", date(2024, 1, 1), 1), award("t2", date(2024, 1, 9), 1)])
    with pytest.raises(SummaryAfterDay):
        rating_on(summary, date(2024, 1, 8))


def test_p11_2_any_past_day_is_answered_from_the_award_history() -> None:
    awards = [award("t1", date(2024, 1, 1), 10_000_000), award("t2", date(2024, 1, 9), 1)]
    assert rating_as_of("p", awards, date(2023, 12, 31)) == 0
    assert rating_as_of("p", awards, date(2024, 1, 2)) == 9_800_000
    assert summarize("p", awards, as_of=date(2024, 1, 8)).last_day == date(2024, 1, 1)


@given(awards_strategy, st.randoms(use_true_random=False))
def test_p11_2_incremental_summary_equals_recomputation_whatever_the_arrival_order(
    awards: list[Award], rng: random.Random
) -> None:
    arrivals = awards + rng.sample(awards, k=len(awards) // 3)  # redelivered events
    rng.shuffle(arrivals)
    summary = RatingSummary("p")
    recorded: dict[str, Award] = {}
    for incoming in arrivals:
        summary = record(summary, recorded, incoming)
    assert summary == summarize("p", awards) == summarize("p", reversed(awards))


@given(awards_strategy, st.integers(0, 1_200))
def test_p11_2_rating_is_the_exact_decayed_sum_to_within_one_micro_point_per_award_day(
    awards: list[Award], offset: int
) -> None:
    day = START + timedelta(days=offset)
    counted = [a for a in awards if a.day <= day]
    exact = sum((a.points * Fraction(49, 50) ** (day - a.day).days for a in counted), Fraction(0))
    award_days = len({a.day for a in counted})
    assert abs(rating_as_of("p", awards, day) - exact) <= Fraction(award_days + 1, 2)
