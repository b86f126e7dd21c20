"""What to do with the tables after a completed hand (P-6): break, balance, hand-for-hand, shoot-out phases.

The service calls `plan_after_hand` each time a table completes a hand, with the layout as it stands (busted
players already removed) and that table's id. Only the table that just finished can lose players, since the
others may be in the middle of a hand; players moved to a busy table join its next hand.

Standard mode (P-6.1–P-6.3, P-6.5, P-6.6), decided in this order:
1. Break (P-6.2): when the players left fit one table fewer, a table with the fewest players is broken as
   soon as it is between hands — the finished table if it is one, or a table left with a single player (it
   cannot deal) — and its players are spread at random over the free seats, each to a table with the fewest
   players (`seating.spread_players`). When the fewest-player table is busy, nothing happens until its own
   hand ends (no balancing meanwhile: players would be moved into a table about to break).
2. Balance (P-6.3): when no break is due, while the finished table is a largest table and the largest has 2 or more
   players more than the smallest, the player who would post the next big blind there moves to the smallest
   table (the lowest-numbered one if several), to the seat where they post the big blind soonest (never
   skipping it); see `blind_positions` for the button convention.
3. Final table (P-6.5): when the plan leaves a single table, `FinalTableReached` is announced.
4. Hand-for-hand (P-6.6): on while the players left are exactly the paid places + 1 (the next elimination
   decides who reaches the prizes) and more than one table plays; off otherwise.
So after any eliminations, once every table has completed a hand or two, the fewest tables are used and sizes
differ by at most one.

Shoot-out mode (P-6.4): no merges or balancing. A table down to its preset winners (or fewer) is held; when
every table is, the phase ends: the winners are regrouped at random onto the fewest tables, as evenly as
possible, keeping the lowest-numbered tables, and the next phase starts. Tables that start a phase already at
or below the winners count (byes) are held at once (`shootout_byes`, also to be called after the initial
seating). When a single table is left it plays down to one winner. Hand-for-hand is not used in shoot-out.
"""

from __future__ import annotations

import random

from tournament_director.domain.blind_positions import next_big_blind_seat, soonest_big_blind_seat
from tournament_director.domain.definition import TableSettings
from tournament_director.domain.kinds import TableMode
from tournament_director.domain.ranking import PlayerId
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
    spread_players,
    tables_needed,
)

SeatMaps = dict[int, dict[int, PlayerId]]


def plan_after_hand(
    layout: Layout,
    finished_table_id: int,
    settings: TableSettings,
    *,
    paid_places: int,
    rng: random.Random,
) -> tuple[Command, ...]:
    """The commands that follow the completed hand at `finished_table_id` (rules in the module docstring).

    `paid_places` is the number of prizes (for hand-for-hand); `rng` is cryptographically secure in
    production."""
    if all(table.table_id != finished_table_id for table in layout.tables):
        raise ValueError(f"there is no table {finished_table_id}")
    if settings.mode is TableMode.SHOOTOUT:
        return _shootout_plan(layout, finished_table_id, settings, rng)
    return _standard_plan(layout, finished_table_id, settings.seats_per_table, paid_places, rng)


def _standard_plan(
    layout: Layout, finished: int, seats_per_table: int, paid_places: int, rng: random.Random
) -> tuple[Command, ...]:
    seat_maps: SeatMaps = {table.table_id: dict(table.seats) for table in layout.tables}
    players = layout.player_count
    commands: list[Command] = []
    if len(seat_maps) > tables_needed(players, seats_per_table):
        if (to_break := _table_to_break(seat_maps, finished)) is not None:
            commands.extend(_break_table(to_break, seat_maps, seats_per_table, rng))
        # Otherwise the table to break is busy: wait for its hand to end rather than balance players into it.
    else:
        buttons = {table.table_id: table.button_seat for table in layout.tables}
        commands.extend(_balance(finished, seat_maps, buttons, seats_per_table))
    if len(seat_maps) == 1 and len(layout.tables) > 1:
        commands.append(FinalTableReached(next(iter(seat_maps))))
    on_the_bubble = len(seat_maps) > 1 and players == paid_places + 1
    if on_the_bubble and not layout.hand_for_hand:
        commands.append(StartHandForHand())
    elif layout.hand_for_hand and not on_the_bubble:
        commands.append(StopHandForHand())
    return tuple(commands)


def _table_to_break(seat_maps: SeatMaps, finished: int) -> int | None:
    """P-6.2: a table with the fewest players that is between hands — the one that just finished, or a table
    left with a single player, which cannot deal."""
    fewest = min(len(seats) for seats in seat_maps.values())
    if len(seat_maps[finished]) == fewest:
        return finished
    return next((table_id for table_id, seats in seat_maps.items() if len(seats) == fewest < 2), None)


def _break_table(table_id: int, seat_maps: SeatMaps, seats_per_table: int, rng: random.Random) -> list[Command]:
    """P-6.2: empty the table onto the others at random, keeping sizes as even as possible."""
    leaving = seat_maps.pop(table_id)
    source_of = {player: SeatRef(table_id, seat) for seat, player in sorted(leaving.items())}
    placements = spread_players(source_of, seat_maps, seats_per_table, rng)
    moves: list[Command] = [
        MovePlayer(player, source_of[player], target, MoveReason.TABLE_BROKEN) for player, target in placements
    ]
    return [*moves, BreakTable(table_id)]


def _balance(finished: int, seat_maps: SeatMaps, buttons: dict[int, int | None], seats_per_table: int) -> list[Command]:
    """P-6.3: move next-big-blind players from the finished table while it is a largest one, 2+ above the
    smallest."""
    moves: list[Command] = []
    while len(seat_maps) > 1:
        sizes = {table_id: len(seats) for table_id, seats in seat_maps.items()}
        largest, smallest = max(sizes.values()), min(sizes.values())
        if sizes[finished] < largest or largest - smallest < 2:
            break
        source_seat = next_big_blind_seat(seat_maps[finished], buttons[finished])
        target = min(table_id for table_id, size in sizes.items() if size == smallest)
        free = [seat for seat in range(1, seats_per_table + 1) if seat not in seat_maps[target]]
        target_seat = soonest_big_blind_seat(seat_maps[target], free, buttons[target])
        player = seat_maps[finished].pop(source_seat)
        seat_maps[target][target_seat] = player
        moves.append(
            MovePlayer(player, SeatRef(finished, source_seat), SeatRef(target, target_seat), MoveReason.BALANCING)
        )
    return moves


def shootout_byes(layout: Layout, settings: TableSettings) -> tuple[HoldTable, ...]:
    """Tables of a multi-table shoot-out phase already at or below their winners: they are held (P-6.4)."""
    if len(layout.tables) < 2:
        return ()
    return tuple(
        HoldTable(table.table_id) for table in layout.tables if table.size <= settings.shootout_winners_per_table
    )


def _shootout_plan(layout: Layout, finished: int, settings: TableSettings, rng: random.Random) -> tuple[Command, ...]:
    winners = settings.shootout_winners_per_table
    if len(layout.tables) < 2:
        return ()  # the last table plays down to one winner
    if any(table.size > winners for table in layout.tables):
        return (HoldTable(finished),) if layout.table(finished).size <= winners else ()
    return _next_phase(layout, settings, rng)


def _next_phase(layout: Layout, settings: TableSettings, rng: random.Random) -> tuple[Command, ...]:
    """P-6.4: regroup every winner at random onto the fewest tables, as evenly as possible."""
    source_of = {
        player: SeatRef(table.table_id, seat)
        for table in sorted(layout.tables, key=lambda table: table.table_id)
        for seat, player in sorted(table.seats.items())
    }
    kept = sorted(table.table_id for table in layout.tables)[: tables_needed(len(source_of), settings.seats_per_table)]
    seat_maps: SeatMaps = {table_id: {} for table_id in kept}
    placements = spread_players(source_of, seat_maps, settings.seats_per_table, rng)
    commands: list[Command] = [
        MovePlayer(player, source_of[player], target, MoveReason.NEW_PHASE)
        for player, target in placements
        if source_of[player] != target
    ]
    commands.extend(BreakTable(table.table_id) for table in layout.tables if table.table_id not in kept)
    commands.append(StartShootoutPhase(layout.phase + 1))
    if len(kept) == 1:
        commands.append(FinalTableReached(kept[0]))
    else:
        regrouped = Layout(tuple(_tables_from(seat_maps)), phase=layout.phase + 1)
        commands.extend(shootout_byes(regrouped, settings))
    return tuple(commands)


def _tables_from(seat_maps: SeatMaps) -> list[Table]:
    return [Table(table_id, seats) for table_id, seats in seat_maps.items()]
