"""The public ranking (P-11.3, P-11.5, P-11.8)."""

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import Leaderboard, LeaderboardEntry, RatingSummary, SummaryAfterDay, Tier

D = date(2024, 6, 30)


def board_of(values: dict[str, int], **kwargs: int) -> Leaderboard:
    return Leaderboard.build([RatingSummary(p, D, v) for p, v in values.items()], D, **kwargs)


def test_p11_3_leaderboard_lists_active_players_best_first_with_tiers() -> None:
    summaries = [
        RatingSummary("low", D, 1),
        RatingSummary("high", D - timedelta(days=1), 100),
        RatingSummary("gone", D - timedelta(days=360), 10**9),
        RatingSummary("new"),
    ]
    page = Leaderboard.build(summaries, D).page(1)
    assert page.active_count == 2
    assert page.entries == (
        LeaderboardEntry(1, "high", 98, Tier.GRUPPO_UNO),
        LeaderboardEntry(2, "low", 1, Tier.GRUPPO_DUE),
    )


def test_p11_3_a_summary_newer_than_the_day_is_refused_not_silently_dropped() -> None:
    with pytest.raises(SummaryAfterDay):
        Leaderboard.build([RatingSummary("p", D + timedelta(days=1), 5)], D)


def test_p11_8_tied_players_share_the_better_rank_and_are_listed_by_player_id() -> None:
    entries = board_of({"c": 5, "a": 5, "b": 7, "d": 1}).page(1).entries
    assert [(e.rank, e.player_id) for e in entries] == [(1, "b"), (2, "a"), (2, "c"), (4, "d")]


def test_p11_5_entries_carry_only_rank_player_id_rating_and_tier() -> None:
    # The service swaps player_id for the nickname; nothing else about the player is exposed.
    assert tuple(LeaderboardEntry.__dataclass_fields__) == ("rank", "player_id", "rating", "tier")


def test_p11_3_pages_slice_the_ranking_and_end_empty() -> None:
    board = board_of({f"p{i:02}": 100 - i for i in range(23)})
    assert [e.rank for e in board.page(3, 10).entries] == [21, 22, 23]
    assert board.page(4, 10).entries == ()
    with pytest.raises(ValueError):
        board.page(0, 10)


def test_p11_3_a_partial_leaderboard_serves_its_first_pages_with_exact_ranks_and_tiers() -> None:
    values = {f"p{i:02}": i // 2 for i in range(20)}
    full, top = board_of(values), board_of(values, depth=10)
    assert top.page(2, 5) == full.page(2, 5)
    assert top.active_count == 20
    with pytest.raises(ValueError):
        top.page(3, 5)


def test_p11_3_rank_for_a_rating_counts_the_players_rated_strictly_higher() -> None:
    board = board_of({"a": 9, "b": 7, "c": 7, "d": 3})
    assert [board.rank_for(r) for r in (10, 9, 7, 5, 3, 0)] == [1, 1, 2, 4, 4, 5]


@given(st.lists(st.integers(0, 20), max_size=40), st.integers(1, 7))
def test_p11_3_pages_concatenate_to_the_whole_ranking(values: list[int], size: int) -> None:
    board = board_of({f"p{i:02}": v for i, v in enumerate(values)})
    pages = [board.page(n, size).entries for n in range(1, len(values) // size + 2)]
    flattened = [e for page in pages for e in page]
    assert [e.rating for e in flattened] == sorted(values, reverse=True)
    assert all(e.rank == 1 + sum(v > e.rating for v in values) for e in flattened)
