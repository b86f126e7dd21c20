"""The run's incremental seating view (P-6): its shortcut never skips a plan the planner would make."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_director.domain.definition import TableSettings
from tournament_director.domain.entries import Price
from tournament_director.domain.run_seating import LiveSeating
from tournament_director.domain.run_state import RunState, TablePlay
from tournament_director.domain.seating import MovePlayer, MoveReason, SeatRef
from tournament_director.domain.table_planner import plan_after_hand
from tournament_director.domain.templates import scheduled_mtt

NINE_SEATS = TableSettings(seats_per_table=9)
NOW = datetime(2025, 3, 1, tzinfo=UTC)


def _state(tables: dict[int, TablePlay], hand_for_hand: bool = False) -> RunState:
    return RunState(
        tournament_id="t",
        currency="EUR",
        definition=scheduled_mtt("t", Price(prize_part_cents=900, fee_cents=100)),
        jackpots=(),
        started_at=NOW,
        now=NOW,
        clock_mark=(1, False),
        tables=tables,
        hand_for_hand=hand_for_hand,
    )


@st.composite
def _tables(draw: st.DrawFn) -> dict[int, TablePlay]:
    # Near-full tables too: balancing happens only when the players need every table.
    sizes = draw(st.lists(st.integers(1, 9) | st.integers(7, 9), min_size=1, max_size=7))
    tables = {}
    for number, size in enumerate(sizes, start=1):
        seats = draw(st.permutations(range(1, 10)))[:size]
        button = draw(st.none() | st.integers(min_value=1, max_value=9))
        tables[number] = TablePlay({seat: f"t{number}s{seat}" for seat in seats}, button_seat=button)
    return tables


@settings(max_examples=300, deadline=None)
@given(_tables(), st.data(), st.booleans())
def test_p6_planner_shortcut_only_skips_plans_that_would_be_empty(
    tables: dict[int, TablePlay], data: st.DataObject, hand_for_hand: bool
) -> None:
    state = _state(tables, hand_for_hand)
    seating = LiveSeating(state, NINE_SEATS)
    finished = data.draw(st.sampled_from(sorted(tables)))
    on_the_bubble = max(1, seating.seated - 1)  # P-6.6: often exactly on the bubble
    paid_places = data.draw(st.just(on_the_bubble) | st.integers(min_value=1, max_value=40))
    if not seating.planner_may_act(finished, paid_places):
        plan = plan_after_hand(seating.layout(), finished, NINE_SEATS, paid_places=paid_places, rng=random.Random(0))
        assert plan == ()


def test_p6_3_applying_a_plan_keeps_the_counts_and_the_player_index() -> None:
    state = _state({1: TablePlay({1: "a", 2: "b", 3: "c"}), 2: TablePlay({1: "d"})})
    seating = LiveSeating(state, NINE_SEATS)
    assert seating.size_gap() == 2 and seating.planner_may_act(1, paid_places=3)
    seating.apply([MovePlayer("a", SeatRef(1, 1), SeatRef(2, 5), MoveReason.BALANCING)])
    assert state.tables[1].seats == {2: "b", 3: "c"} and state.tables[2].seats == {1: "d", 5: "a"}
    assert seating.table_of("a") == 2 and seating.size_gap() == 0 and seating.seated == 4
    assert seating.unseat("d") == (2, 1) and seating.size_gap() == 1
