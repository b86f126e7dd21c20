"""Table composition after each hand (P-6.1–P-6.6)."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_director.domain.definition import TableSettings
from tournament_director.domain.kinds import TableMode
from tournament_director.domain.seating import (
    BreakTable,
    Command,
    FinalTableReached,
    HoldTable,
    Layout,
    MovePlayer,
    MoveReason,
    SeatRef,
    StartHandForHand,
    StartShootoutPhase,
    StopHandForHand,
    Table,
    apply_plan,
    initial_seating,
    tables_needed,
)
from tournament_director.domain.table_planner import plan_after_hand, shootout_byes

NINE_SEATS = TableSettings(seats_per_table=9)


def _table(table_id: int, size: int, button_seat: int | None = 1, first_seat: int = 1) -> Table:
    seats = {seat: f"t{table_id}s{seat}" for seat in range(first_seat, first_seat + size)}
    return Table(table_id, seats, button_seat)


def _plan(
    layout: Layout, finished: int, paid_places: int = 0, table_settings: TableSettings = NINE_SEATS
) -> tuple[Command, ...]:
    return plan_after_hand(layout, finished, table_settings, paid_places=paid_places, rng=random.Random(7))


def _sizes(layout: Layout) -> dict[int, int]:
    return {table.table_id: table.size for table in layout.tables}


# P-6.2 breaking a table


def test_p6_2_fewest_player_table_broken_when_one_table_fewer_suffices() -> None:
    layout = Layout((_table(1, 6), _table(2, 6), _table(3, 5)))  # 17 players fit 2 tables of 9
    commands = _plan(layout, finished=3)
    moves = [command for command in commands if isinstance(command, MovePlayer)]
    assert len(moves) == 5 and all(move.reason is MoveReason.TABLE_BROKEN for move in moves)
    assert {move.source.table_id for move in moves} == {3}
    assert commands[-1] == BreakTable(3)
    assert sorted(_sizes(apply_plan(layout, commands)).values()) == [8, 9]


def test_p6_2_a_busy_fewest_table_is_broken_at_the_end_of_its_own_hand() -> None:
    layout = Layout((_table(1, 6), _table(2, 6), _table(3, 5)))
    assert _plan(layout, finished=1) == ()


def test_p6_2_no_balancing_into_a_table_about_to_break() -> None:
    layout = Layout((_table(1, 8), _table(2, 8), _table(3, 2)))  # 18 players fit 2 tables; table 3 is busy
    assert _plan(layout, finished=1) == ()


def test_p6_2_a_lone_player_table_is_broken_whichever_table_finishes() -> None:
    layout = Layout((_table(1, 8), _table(2, 7), _table(3, 1)))  # 16 players; table 3 cannot deal
    commands = _plan(layout, finished=1)
    assert commands[-1] == BreakTable(3)
    assert _sizes(apply_plan(layout, commands)) == {1: 8, 2: 8}


def test_p6_2_players_spread_to_the_smallest_tables_first() -> None:
    # 4 + 8 + 3 = 15 players fit 2 tables; table 3 (3 players) breaks: all go to table 1 (4 → 7).
    layout = Layout((_table(1, 4), _table(2, 8), _table(3, 3)))
    assert _sizes(apply_plan(layout, _plan(layout, finished=3))) == {1: 7, 2: 8}


# P-6.3 balancing


def test_p6_3_moves_the_next_big_blind_to_the_soonest_big_blind_seat() -> None:
    # Table 1: 9 players, button on 4 → next button 5, small blind 6, big blind 7: the player on 7 moves.
    # Table 2: seats 1–6 taken, button on 2 → next button 3, small blind 4, big blind 5. A newcomer on 7, 8 or 9
    # posts the big blind in 3 hands (after 5 and 6); on 7 first clockwise.
    layout = Layout((_table(1, 9, button_seat=4), _table(2, 6, button_seat=2)))
    commands = _plan(layout, finished=1)
    assert commands == (MovePlayer("t1s7", SeatRef(1, 7), SeatRef(2, 7), MoveReason.BALANCING),)


def test_p6_3_several_moves_take_the_next_big_blinds_in_turn() -> None:
    layout = Layout((_table(1, 9, button_seat=9), _table(2, 4, button_seat=1)))
    commands = _plan(layout, finished=1)
    # 9/4 → 8/5 → 7/6. Button on 9: next button 1, small blind 2, big blind 3 moves; then 4 is the next big blind.
    assert [move.source.seat for move in commands if isinstance(move, MovePlayer)] == [3, 4]
    assert _sizes(apply_plan(layout, commands)) == {1: 7, 2: 6}


def test_p6_3_only_a_largest_table_gives_players() -> None:
    layout = Layout((_table(1, 8), _table(2, 9), _table(3, 6)))
    assert _plan(layout, finished=1) == ()
    moved = _plan(layout, finished=2)
    # Button on 1: next button 2, small blind 3, big blind 4 moves.
    assert moved == (MovePlayer("t2s4", SeatRef(2, 4), SeatRef(3, 7), MoveReason.BALANCING),)


def test_p6_3_no_move_when_sizes_differ_by_one() -> None:
    assert _plan(Layout((_table(1, 9), _table(2, 8))), finished=1) == ()


# P-6.5 final table, P-6.6 hand-for-hand


def test_p6_5_final_table_when_the_players_fit_one_table() -> None:
    layout = Layout((_table(1, 5), _table(2, 4)))
    commands = _plan(layout, finished=2)
    assert commands[-1] == FinalTableReached(1)
    assert _sizes(apply_plan(layout, commands)) == {1: 9}


def test_p6_6_hand_for_hand_starts_on_the_bubble() -> None:
    layout = Layout((_table(1, 6), _table(2, 5)))  # 11 players, 10 paid
    assert _plan(layout, finished=1, paid_places=10) == (StartHandForHand(),)
    assert _plan(layout, finished=1, paid_places=9) == ()


def test_p6_6_hand_for_hand_stops_once_the_bubble_bursts() -> None:
    layout = Layout((_table(1, 5), _table(2, 5)), hand_for_hand=True)  # 10 players, 10 paid
    assert _plan(layout, finished=1, paid_places=10) == (StopHandForHand(),)


def test_p6_6_no_hand_for_hand_at_a_single_table() -> None:
    assert _plan(Layout((_table(1, 4),)), finished=1, paid_places=3) == ()


def test_p6_6_hand_for_hand_stops_when_the_last_merge_makes_the_final_table() -> None:
    layout = Layout((_table(1, 5), _table(2, 4)), hand_for_hand=True)  # 9 players, 8 paid
    commands = _plan(layout, finished=2, paid_places=8)
    assert commands[-2:] == (FinalTableReached(1), StopHandForHand())


# P-6.4 shoot-out

SHOOTOUT = TableSettings(seats_per_table=6, mode=TableMode.SHOOTOUT, shootout_winners_per_table=1)


def test_p6_4_no_merge_or_balancing_within_a_phase() -> None:
    layout = Layout((_table(1, 2), _table(2, 6)))
    assert _plan(layout, finished=1, table_settings=SHOOTOUT) == ()


def test_p6_4_a_table_down_to_its_winners_waits() -> None:
    layout = Layout((_table(1, 1), _table(2, 4)))
    assert _plan(layout, finished=1, table_settings=SHOOTOUT) == (HoldTable(1),)


def test_p6_4_phase_ends_when_every_table_has_its_winners_then_regroups() -> None:
    layout = Layout(tuple(_table(table_id, 1, first_seat=table_id) for table_id in range(1, 8)))  # 7 winners
    commands = _plan(layout, finished=7, table_settings=SHOOTOUT)
    assert commands[-1] == StartShootoutPhase(2)
    assert {BreakTable(table_id) for table_id in range(3, 8)} <= set(commands)
    regrouped = apply_plan(layout, commands)
    assert sorted(_sizes(regrouped).values()) == [3, 4]
    assert regrouped.phase == 2
    assert regrouped.player_count == 7


def test_p6_4_last_regroup_makes_the_final_table_which_plays_to_one_winner() -> None:
    layout = Layout(tuple(_table(table_id, 1, first_seat=table_id) for table_id in range(1, 5)))
    commands = _plan(layout, finished=2, table_settings=SHOOTOUT)
    assert commands[-2:] == (StartShootoutPhase(2), FinalTableReached(1))
    final_table = apply_plan(layout, commands)
    assert final_table.player_count == 4
    # Down to two players at the last table: no hold, it plays on to one winner.
    heads_up = replace(final_table, tables=(replace(final_table.tables[0], seats={1: "x", 2: "y"}),))
    assert _plan(heads_up, 1, table_settings=SHOOTOUT) == ()


def test_p6_4_regroup_after_a_phase_holds_byes_of_the_new_phase() -> None:
    two_winners = TableSettings(seats_per_table=4, mode=TableMode.SHOOTOUT, shootout_winners_per_table=2)
    layout = Layout((_table(1, 2), _table(2, 2), _table(3, 1)))  # 5 winners → 4-seat tables of 3 and 2
    commands = _plan(layout, finished=3, table_settings=two_winners)
    holds = [command for command in commands if isinstance(command, HoldTable)]
    regrouped = apply_plan(layout, commands)
    assert sorted(_sizes(regrouped).values()) == [2, 3]
    assert [regrouped.table(hold.table_id).size for hold in holds] == [2]
    assert commands.index(StartShootoutPhase(2)) < commands.index(holds[0])


def test_p6_4_byes_are_held_at_once() -> None:
    two_winners = TableSettings(seats_per_table=4, mode=TableMode.SHOOTOUT, shootout_winners_per_table=2)
    layout = Layout((_table(1, 3), _table(2, 2)))  # 5 players, 4-seat tables: table 2 is a bye
    assert shootout_byes(layout, two_winners) == (HoldTable(2),)
    assert shootout_byes(Layout((_table(1, 2),)), two_winners) == ()


# Property: standard mode converges to the fewest tables, sizes within one


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 90), st.integers(2, 10), st.integers(0, 2**32), st.data())
def test_p6_1_p6_2_p6_3_after_any_eliminations_fewest_tables_and_even_sizes(
    players: int, seats: int, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    table_settings = TableSettings(seats_per_table=seats)
    layout = initial_seating([f"p{i}" for i in range(players)], seats, rng)
    layout = replace(layout, tables=tuple(replace(table, button_seat=min(table.seats)) for table in layout.tables))

    def hand_ends(layout: Layout, table_id: int) -> tuple[Layout, tuple[Command, ...]]:
        before = _sizes(layout)
        commands = plan_after_hand(layout, table_id, table_settings, paid_places=0, rng=rng)
        for command in commands:
            if isinstance(command, MovePlayer):  # only an idle table gives players
                assert command.source.table_id == table_id or before[command.source.table_id] == 1
            if isinstance(command, BreakTable):
                assert before[command.table_id] == min(before.values())  # P-6.2: the fewest
        after = apply_plan(layout, commands)
        assert all(table.size <= seats for table in after.tables)
        assert len(after.tables) >= tables_needed(after.player_count, seats)
        return after, commands

    # Eliminations: a hand at a random table busts some of its players (never all: someone won the chips).
    for _ in range(data.draw(st.integers(0, players - 1))):
        if layout.player_count <= 1:
            break
        table = data.draw(st.sampled_from(layout.tables))
        busted = data.draw(st.lists(st.sampled_from(sorted(table.seats)), max_size=table.size - 1, unique=True))
        seats_left = {seat: player for seat, player in table.seats.items() if seat not in busted}
        layout = replace(layout, tables=tuple(replace(t, seats=seats_left) if t is table else t for t in layout.tables))
        layout, _ = hand_ends(layout, table.table_id)

    # Then every table plays quiet hands, in any order, until nothing changes.
    for _ in range(len(layout.tables) + 2):
        changed = False
        for table_id in data.draw(st.permutations([table.table_id for table in layout.tables])):
            if any(table.table_id == table_id for table in layout.tables):
                layout, commands = hand_ends(layout, table_id)
                changed = changed or bool(commands)
        if not changed:
            break
    assert not changed
    sizes = [table.size for table in layout.tables]
    assert len(layout.tables) == tables_needed(layout.player_count, seats)
    assert max(sizes) - min(sizes) <= 1


# P-5.2 reseating is random among the admissible seats


def test_p5_2_players_of_a_broken_table_take_random_admissible_seats() -> None:
    """Table 3 (5 players) breaks into tables 1 and 2 (6 each, seats 1–6 taken): over many draws each of its
    players lands on each admissible (empty) seat of both tables, and never on a taken one."""
    layout = Layout((_table(1, 6), _table(2, 6), _table(3, 5)))
    landed: dict[str, set[SeatRef]] = {}
    for seed in range(400):
        commands = plan_after_hand(layout, 3, NINE_SEATS, paid_places=0, rng=random.Random(seed))
        for move in (command for command in commands if isinstance(command, MovePlayer)):
            landed.setdefault(move.player_id, set()).add(move.target)
    admissible = {SeatRef(table, seat) for table in (1, 2) for seat in (7, 8, 9)}
    assert set(landed) == {f"t3s{seat}" for seat in range(1, 6)}
    assert all(seats == admissible for seats in landed.values())


def test_p5_2_a_new_shootout_phase_regroups_the_winners_at_random() -> None:
    """Four tables down to their winner regroup onto one table: over many draws every winner sits at every
    seat of the new table."""
    shootout = TableSettings(seats_per_table=4, mode=TableMode.SHOOTOUT)
    layout = Layout(tuple(_table(table_id, 1, first_seat=table_id) for table_id in range(1, 5)))
    seats_of: dict[str, set[int]] = {}
    for seed in range(300):
        new = apply_plan(layout, plan_after_hand(layout, 4, shootout, paid_places=0, rng=random.Random(seed)))
        [table] = new.tables
        for seat, player in table.seats.items():
            seats_of.setdefault(player, set()).add(seat)
    assert seats_of == {f"t{n}s{n}": {1, 2, 3, 4} for n in range(1, 5)}
