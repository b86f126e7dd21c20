"""Skill tiers: quintiles of active players, newcomers, inactive players (P-11.3, P-11.4, P-11.6, P-11.8)."""

from datetime import date, timedelta

import pytest
import rating.domain as domain
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import (
    CLASSIFIED_TIERS,
    Award,
    Leaderboard,
    RatingSummary,
    SummaryAfterDay,
    Tier,
    TierChange,
    TierCutoffs,
    active_rating,
    apply_award,
    compute_tiers,
    is_active,
    part_sizes,
    tier_changes,
    tier_for_rank,
)

D = date(2024, 6, 30)
G1, G2, G3, LISTED, COND = CLASSIFIED_TIERS


def active(player: str, value: int) -> RatingSummary:
    return RatingSummary(player, D, value)


def tiers_of(values: list[int]) -> list[Tier]:
    table = compute_tiers([active(f"p{i}", v) for i, v in enumerate(values)], D)
    return [table.tier_of(f"p{i}") for i in range(len(values))]


@pytest.mark.parametrize(
    ("tier", "label"),
    [
        (Tier.GRUPPO_UNO, "GRUPPO UNO (Group One)"),
        (Tier.GRUPPO_DUE, "GRUPPO DUE (Group Two)"),
        (Tier.GRUPPO_TRE, "GRUPPO TRE (Group Three)"),
        (Tier.LISTED, "LISTED (Listed)"),
        (Tier.CONDIZIONATA, "CONDIZIONATA (Conditional)"),
        (Tier.ESORDIENTE, "ESORDIENTE (Newcomer)"),
        (Tier.INATTIVO, "INATTIVO (Inactive)"),
    ],
)
def test_p11_3_tiers_show_italian_and_english_side_by_side(tier: Tier, label: str) -> None:
    assert tier.label == label


def test_p11_3_the_360_day_window_includes_day_d_and_the_359_days_before() -> None:
    assert is_active(D, D)
    assert is_active(D - timedelta(days=359), D)
    assert not is_active(D - timedelta(days=360), D)
    assert not is_active(None, D)
    assert not is_active(D + timedelta(days=1), D)


def test_p11_4_last_tournament_360_days_ago_is_inattivo_359_days_ago_is_classified() -> None:
    summaries = [RatingSummary("old", D - timedelta(days=360), 10**9), RatingSummary("edge", D - timedelta(359), 1)]
    table = compute_tiers(summaries, D)
    assert table.tier_of("old") is Tier.INATTIVO
    assert table.tier_of("edge") is Tier.GRUPPO_UNO  # the only active player
    assert table.cutoffs.active_count == 1


def test_p11_4_window_edges_across_a_year_boundary() -> None:
    # 2024 is a leap year: 2024-01-05 minus 359 days is 2023-01-11.
    day = date(2024, 1, 5)
    assert is_active(date(2023, 1, 11), day)
    assert not is_active(date(2023, 1, 10), day)


def test_p11_3_active_rating_is_the_rating_on_the_day_for_active_players_only() -> None:
    assert active_rating(RatingSummary("p", D - timedelta(days=1), 100), D) == 98
    assert active_rating(RatingSummary("p", D - timedelta(days=360), 100), D) is None
    assert active_rating(RatingSummary("p"), D) is None


def test_p11_4_never_played_is_esordiente_even_when_unknown_to_the_table() -> None:
    table = compute_tiers([RatingSummary("new"), active("a", 5)], D)
    assert table.tier_of("new") is Tier.ESORDIENTE
    assert table.tier_of("someone-else") is Tier.ESORDIENTE


def test_p11_3_tiers_cannot_be_computed_from_a_summary_newer_than_the_day() -> None:
    with pytest.raises(SummaryAfterDay):
        compute_tiers([RatingSummary("p", D + timedelta(days=1), 5)], D)


def test_p11_3_ten_players_make_five_parts_of_two() -> None:
    assert tiers_of([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]) == [G1, G1, G2, G2, G3, G3, LISTED, LISTED, COND, COND]


@pytest.mark.parametrize(
    ("active_count", "sizes"),
    [
        (0, (0, 0, 0, 0, 0)),
        (1, (1, 0, 0, 0, 0)),
        (2, (1, 1, 0, 0, 0)),
        (4, (1, 1, 1, 1, 0)),
        (5, (1, 1, 1, 1, 1)),
        (7, (2, 2, 1, 1, 1)),
        (9, (2, 2, 2, 2, 1)),
        (11, (3, 2, 2, 2, 2)),
    ],
)
def test_p11_3_when_n_is_not_a_multiple_of_5_the_extra_players_go_to_the_best_tiers(
    active_count: int, sizes: tuple[int, ...]
) -> None:
    assert part_sizes(active_count) == sizes


def test_p11_3_seven_players_split_2_2_1_1_1() -> None:
    assert tiers_of([70, 60, 50, 40, 30, 20, 10]) == [G1, G1, G2, G2, G3, LISTED, COND]


def test_p11_3_a_lone_active_player_is_gruppo_uno() -> None:
    assert tiers_of([0]) == [G1]


def test_p11_8_tied_ratings_take_the_better_tier() -> None:
    # Ten players: ranks 2, 3, 4 are tied -> all three share rank 2, which is GRUPPO UNO. The next
    # player keeps rank 5 (GRUPPO TRE): GRUPPO DUE stays empty rather than shifting everyone up.
    assert tiers_of([10, 9, 9, 9, 5, 4, 3, 2, 1, 0]) == [G1, G1, G1, G1, G3, G3, LISTED, LISTED, COND, COND]


def test_p11_8_a_tie_straddling_the_last_boundary_lifts_everyone_tied() -> None:
    assert tiers_of([5, 4, 3, 2, 1, 1]) == [G1, G1, G2, G3, LISTED, LISTED]
    assert tiers_of([1] * 6) == [G1] * 6


def test_p11_3_tier_for_rank_refuses_ranks_outside_the_field() -> None:
    assert tier_for_rank(7, 7) is COND
    with pytest.raises(ValueError):
        tier_for_rank(8, 7)


def test_p11_3_stored_cutoffs_answer_one_players_tier_for_their_day() -> None:
    summaries = [active(f"p{i}", v) for i, v in enumerate([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])]
    cutoffs = compute_tiers(summaries, D).cutoffs
    assert cutoffs == TierCutoffs(D, 10, (9, 7, 5, 3, 1))
    assert cutoffs.tier_for(active("p2", 8)) is G2
    assert cutoffs.tier_for(RatingSummary("n")) is Tier.ESORDIENTE
    assert cutoffs.tier_for(RatingSummary("x", D - timedelta(days=400), 50)) is Tier.INATTIVO
    with pytest.raises(ValueError):
        cutoffs.classify(0)  # below every active player: not from this day's population


def test_p11_2_p11_3_older_points_weigh_less_in_the_ranking() -> None:
    # Same 10 points earned 10 days apart: the older one has decayed and ranks lower.
    table = compute_tiers([RatingSummary("old", D - timedelta(days=10), 10**7), active("new", 10**7)], D)
    assert (table.tier_of("new"), table.tier_of("old")) == (G1, G2)


def test_p11_3_tier_changes_between_two_days() -> None:
    # Decay is the same for everyone, so tiers move only when awards arrive or players leave the window.
    a = RatingSummary("a", date(2024, 1, 1), 10_000_000)
    b = RatingSummary("b", date(2024, 1, 10), 9_000_000)
    c = RatingSummary("c", date(2023, 1, 20), 1_000_000)
    before = compute_tiers([a, b, c, RatingSummary("d")], date(2024, 1, 10))
    assert [before.tier_of(p) for p in "abcd"] == [G2, G1, G3, Tier.ESORDIENTE]
    # By 15 January: a wins again, c's last tournament is 360 days old, d plays a first tournament.
    later = [
        apply_award(a, Award("a", "t9", date(2024, 1, 15), 5_000_000)),
        b,
        c,
        RatingSummary("d", date(2024, 1, 14), 1),
    ]
    after = compute_tiers(later, date(2024, 1, 15))
    assert tier_changes(before, after) == (
        TierChange("a", G2, G1),
        TierChange("b", G1, G2),
        TierChange("c", G3, Tier.INATTIVO),
        TierChange("d", Tier.ESORDIENTE, G3),
    )
    assert tier_changes(after, after) == ()


def test_p11_6_no_api_sets_a_tier_by_hand() -> None:
    public = {name.lower() for name in domain.__all__}
    assert not {name for name in public if "tier" in name and any(w in name for w in ("set", "assign", "override"))}
    table = compute_tiers([active("a", 1)], D)
    with pytest.raises(TypeError):
        table.tiers["a"] = Tier.GRUPPO_UNO  # type: ignore[index]


def test_p11_3_one_summary_per_player() -> None:
    with pytest.raises(ValueError):
        compute_tiers([active("a", 1), active("a", 2)], D)


ratings_strategy = st.lists(st.integers(0, 30), min_size=1, max_size=60)


@given(ratings_strategy)
def test_p11_3_p11_8_each_tier_is_the_part_holding_its_competition_rank(values: list[int]) -> None:
    n = len(values)
    expected = [tier_for_rank(1 + sum(other > v for other in values), n) for v in values]
    assert tiers_of(values) == expected


@given(st.lists(st.integers(0, 10**9), min_size=1, max_size=60, unique=True))
def test_p11_3_without_ties_tiers_hold_exactly_the_part_sizes(values: list[int]) -> None:
    tiers = tiers_of(values)
    assert tuple(tiers.count(t) for t in CLASSIFIED_TIERS) == part_sizes(len(values))


@given(ratings_strategy)
def test_p11_3_a_higher_rating_never_gets_a_worse_tier(values: list[int]) -> None:
    order = {t: i for i, t in enumerate(CLASSIFIED_TIERS)}
    pairs = sorted(zip(values, tiers_of(values), strict=True), key=lambda pair: -pair[0])
    levels = [order[t] for _, t in pairs]
    assert levels == sorted(levels)


@given(ratings_strategy, st.integers(0, 500))
def test_p11_3_leaderboard_and_tier_table_agree(values: list[int], age: int) -> None:
    summaries = [RatingSummary(f"p{i}", D - timedelta(days=age * (i % 2)), v) for i, v in enumerate(values)]
    table = compute_tiers(summaries, D)
    board = Leaderboard.build(summaries, D)
    entries = board.page(1, max(1, len(values))).entries
    assert {e.player_id: e.tier for e in entries} == {p: t for p, t in table.tiers.items() if t in CLASSIFIED_TIERS}
