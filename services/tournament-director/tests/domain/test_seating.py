"""Initial seating (P-5.1, P-6.1) and applying table commands."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_director.domain.seating import (
    BreakTable,
    Command,
    Layout,
    MovePlayer,
    MoveReason,
    SeatRef,
    StartHandForHand,
    StartShootoutPhase,
    Table,
    apply_plan,
    initial_seating,
    tables_needed,
)


@given(st.integers(1, 400), st.integers(2, 10), st.integers(0, 2**32))
def test_p5_1_p6_1_initial_seating_fewest_tables_evenly(players: int, seats: int, seed: int) -> None:
    names = [f"p{i}" for i in range(players)]
    layout = initial_seating(names, seats, random.Random(seed))
    sizes = [table.size for table in layout.tables]
    assert len(layout.tables) == tables_needed(players, seats)
    assert max(sizes) - min(sizes) <= 1
    assert sorted(p for table in layout.tables for p in table.seats.values()) == sorted(names)
    assert all(1 <= seat <= seats for table in layout.tables for seat in table.seats)


def test_p5_1_initial_seating_is_random_over_tables_and_seats() -> None:
    rng = random.Random(20240601)
    names = [f"p{i}" for i in range(18)]
    where = Counter(initial_seating(names, 9, rng).seat_of("p0") for _ in range(1800))
    # 18 places, 100 expected each.
    assert len(where) == 18
    assert all(60 <= count <= 140 for count in where.values())


def test_initial_seating_refuses_duplicates() -> None:
    with pytest.raises(ValueError):
        initial_seating(["a", "a"], 9, random.Random(1))


def _layout() -> Layout:
    return Layout(tables=(Table(1, {1: "a", 2: "b"}, button_seat=1), Table(2, {1: "c"}, button_seat=1)))


def test_p6_4_regrouping_moves_apply_together() -> None:
    swap = [
        MovePlayer("a", SeatRef(1, 1), SeatRef(2, 1), MoveReason.NEW_PHASE),
        MovePlayer("c", SeatRef(2, 1), SeatRef(1, 1), MoveReason.NEW_PHASE),
    ]
    layout = apply_plan(_layout(), swap)
    assert layout.table(1).seats == {1: "c", 2: "b"}
    assert layout.table(2).seats == {1: "a"}


def test_p6_2_p6_6_break_and_hand_for_hand_applied() -> None:
    commands: list[Command] = [
        MovePlayer("c", SeatRef(2, 1), SeatRef(1, 5), MoveReason.TABLE_BROKEN),
        BreakTable(2),
        StartHandForHand(),
    ]
    layout = apply_plan(_layout(), commands)
    assert [table.table_id for table in layout.tables] == [1]
    assert layout.hand_for_hand
    assert layout.table(1).button_seat == 1


def test_p6_4_a_new_shootout_phase_starts_on_fresh_tables() -> None:
    layout = apply_plan(_layout(), [StartShootoutPhase(2)])
    assert layout.phase == 2
    assert all(table.button_seat is None for table in layout.tables)


@pytest.mark.parametrize(
    "commands",
    [
        [MovePlayer("a", SeatRef(2, 1), SeatRef(2, 3), MoveReason.BALANCING)],  # not there
        [MovePlayer("a", SeatRef(1, 1), SeatRef(2, 1), MoveReason.BALANCING)],  # seat taken
        [BreakTable(1)],  # players still seated
    ],
)
def test_inconsistent_commands_are_refused(commands: list[MovePlayer | BreakTable]) -> None:
    with pytest.raises(ValueError):
        apply_plan(_layout(), commands)
