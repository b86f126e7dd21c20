"""Tables, seats and the commands that change them (P-5, P-6).

A `Layout` is the seating of a tournament: its tables (numbered from 1), who sits where, each table's button,
whether hand-for-hand is on and the shoot-out phase. The planner (`table_planner`) answers each completed hand
with plain commands for the service to forward to the table engine; `apply_plan` applies them to a layout.

Command semantics the service relies on:
- `MovePlayer` moves a player (with their chips) between hands of the source table; a player moved to a table
  whose hand is in progress joins that table's next hand. The moves of one plan are applied together: every
  moving player leaves their seat before any takes a new one (shoot-out regrouping may reuse seats).
- `BreakTable` closes a table emptied by the plan's moves.
- `HoldTable`: the table deals no more hands until the next shoot-out phase starts.
- `StartHandForHand` / `StopHandForHand` (P-6.6): while on, every table plays one hand and waits for the others.
- `FinalTableReached` (P-6.5) and `StartShootoutPhase` (P-6.4) announce what happened.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tournament_director.domain.ranking import PlayerId


@dataclass(frozen=True)
class Table:
    """A table of a tournament: `seats` maps seat number (1..seats_per_table, clockwise) to player."""

    table_id: int
    seats: Mapping[int, PlayerId] = field(default_factory=dict)
    #: The button's seat in the table's latest hand, in progress or completed; `None` before the first hand.
    button_seat: int | None = None

    @property
    def size(self) -> int:
        return len(self.seats)

    def free_seats(self, seats_per_table: int) -> list[int]:
        return [seat for seat in range(1, seats_per_table + 1) if seat not in self.seats]


@dataclass(frozen=True)
class SeatRef:
    table_id: int
    seat: int


class MoveReason(StrEnum):
    TABLE_BROKEN = "table_broken"  # P-6.2
    BALANCING = "balancing"  # P-6.3
    NEW_PHASE = "new_phase"  # P-6.4


@dataclass(frozen=True)
class MovePlayer:
    player_id: PlayerId
    source: SeatRef
    target: SeatRef
    reason: MoveReason


@dataclass(frozen=True)
class BreakTable:
    table_id: int


@dataclass(frozen=True)
class HoldTable:
    table_id: int


@dataclass(frozen=True)
class StartHandForHand:
    pass


@dataclass(frozen=True)
class StopHandForHand:
    pass


@dataclass(frozen=True)
class FinalTableReached:
    table_id: int


@dataclass(frozen=True)
class StartShootoutPhase:
    phase: int


Command = (
    MovePlayer | BreakTable | HoldTable | StartHandForHand | StopHandForHand | FinalTableReached | StartShootoutPhase
)


@dataclass(frozen=True)
class Layout:
    """The seating of one tournament."""

    tables: tuple[Table, ...]
    hand_for_hand: bool = False
    #: The shoot-out phase being played (1 for standard tournaments).
    phase: int = 1

    def table(self, table_id: int) -> Table:
        for table in self.tables:
            if table.table_id == table_id:
                return table
        raise KeyError(table_id)

    @property
    def player_count(self) -> int:
        return sum(table.size for table in self.tables)

    def seat_of(self, player_id: PlayerId) -> SeatRef:
        for table in self.tables:
            for seat, player in table.seats.items():
                if player == player_id:
                    return SeatRef(table.table_id, seat)
        raise KeyError(player_id)


def tables_needed(players: int, seats_per_table: int) -> int:
    """The fewest tables that seat `players` (P-6.1); at least one."""
    return max(1, -(-players // seats_per_table))


def spread_players(
    players: Iterable[PlayerId],
    seat_maps: dict[int, dict[int, PlayerId]],
    seats_per_table: int,
    rng: random.Random,
) -> list[tuple[PlayerId, SeatRef]]:
    """Seat `players` in random order, each at a random free seat of a random table among those with the
    fewest players, so that sizes end up as even as possible (P-5.1, P-5.2, P-6.2). Updates `seat_maps`."""
    order = list(players)
    rng.shuffle(order)
    placements = []
    for player in order:
        open_tables = sorted(table_id for table_id, seats in seat_maps.items() if len(seats) < seats_per_table)
        if not open_tables:
            raise ValueError("no free seat left")
        fewest = min(len(seat_maps[table_id]) for table_id in open_tables)
        table_id = rng.choice([table_id for table_id in open_tables if len(seat_maps[table_id]) == fewest])
        seat = rng.choice([s for s in range(1, seats_per_table + 1) if s not in seat_maps[table_id]])
        seat_maps[table_id][seat] = player
        placements.append((player, SeatRef(table_id, seat)))
    return placements


def initial_seating(players: Sequence[PlayerId], seats_per_table: int, rng: random.Random) -> Layout:
    """P-5.1: seat every player uniformly at random on the fewest tables, as evenly as possible (P-6.1).

    `rng` must be cryptographically secure in production (`random.SystemRandom`); tests pass a seeded one."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seat_maps: dict[int, dict[int, PlayerId]] = {
        table_id: {} for table_id in range(1, tables_needed(len(players), seats_per_table) + 1)
    }
    spread_players(players, seat_maps, seats_per_table, rng)
    return Layout(tables=tuple(Table(table_id, seats) for table_id, seats in seat_maps.items()))


def apply_plan(layout: Layout, commands: Iterable[Command]) -> Layout:
    """The layout after the service carried out `commands` (moves applied together, see the module doc)."""
    commands = list(commands)
    seat_maps = {table.table_id: dict(table.seats) for table in layout.tables}
    moves = [command for command in commands if isinstance(command, MovePlayer)]
    for move in moves:
        if seat_maps[move.source.table_id].get(move.source.seat) != move.player_id:
            raise ValueError(f"{move.player_id} is not at {move.source}")
        del seat_maps[move.source.table_id][move.source.seat]
    for move in moves:
        if move.target.seat in seat_maps[move.target.table_id]:
            raise ValueError(f"{move.target} is taken")
        seat_maps[move.target.table_id][move.target.seat] = move.player_id
    hand_for_hand, phase = layout.hand_for_hand, layout.phase
    broken: set[int] = set()
    for command in commands:
        match command:
            case BreakTable(table_id=table_id):
                if seat_maps[table_id]:
                    raise ValueError(f"table {table_id} is broken with players still seated")
                broken.add(table_id)
            case StartHandForHand():
                hand_for_hand = True
            case StopHandForHand():
                hand_for_hand = False
            case StartShootoutPhase(phase=new_phase):
                phase = new_phase
    # A new shoot-out phase starts on fresh tables: no button yet.
    new_phase_started = phase != layout.phase
    tables = tuple(
        replace(
            table,
            seats=seat_maps[table.table_id],
            button_seat=None if new_phase_started else table.button_seat,
        )
        for table in layout.tables
        if table.table_id not in broken
    )
    return Layout(tables=tables, hand_for_hand=hand_for_hand, phase=phase)
