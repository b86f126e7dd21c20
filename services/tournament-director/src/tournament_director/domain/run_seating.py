"""The live seating of a running tournament: who sits where, kept up to date incrementally for the planner.

`plan_after_hand` looks at the whole layout, so calling it after every hand of a 3,000-player field costs a pass
over ~330 tables each time. `LiveSeating` keeps the counts the planner's decisions depend on (table sizes,
players seated) so that `planner_may_act` can tell in constant time when a call would certainly return nothing;
the planner itself still makes every decision. Plans are applied with `seating.apply_plan` on the tables they
touch only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from tournament_director.domain.definition import TableSettings
from tournament_director.domain.ranking import PlayerId
from tournament_director.domain.run_state import RunState
from tournament_director.domain.seating import (
    BreakTable,
    Command,
    Layout,
    MovePlayer,
    Table,
    apply_plan,
    tables_needed,
)


class LiveSeating:
    """An index over `state.tables` (which stays the one source of truth) for seating changes and planning."""

    def __init__(self, state: RunState, settings: TableSettings) -> None:
        self._state = state
        self._settings = settings
        self._table_of: dict[PlayerId, int] = {}
        self._sizes: Counter[int] = Counter()
        for table_id, table in state.tables.items():
            self._sizes[len(table.seats)] += 1
            self._table_of.update((player, table_id) for player in table.seats.values())

    @property
    def seated(self) -> int:
        return len(self._table_of)

    def table_of(self, player_id: PlayerId) -> int | None:
        return self._table_of.get(player_id)

    def unseat(self, player_id: PlayerId) -> tuple[int, int]:
        """Remove a player from their seat; returns (table id, seat)."""
        table_id = self._table_of.pop(player_id)
        table = self._state.tables[table_id]
        seat = next(seat for seat, player in table.seats.items() if player == player_id)
        self._sizes[len(table.seats)] -= 1
        self._sizes[len(table.seats) - 1] += 1
        del table.seats[seat]
        return table_id, seat

    def size_gap(self) -> int:
        """Largest table size minus smallest (0 with one table)."""
        sizes = [size for size, count in self._sizes.items() if count > 0]
        return max(sizes) - min(sizes) if sizes else 0

    def layout(self) -> Layout:
        """The planner's view. Tables share their seat dicts with the state: the planner only reads them."""
        state = self._state
        return Layout(
            tables=tuple(
                Table(table_id, table.seats, table.button_seat) for table_id, table in sorted(state.tables.items())
            ),
            hand_for_hand=state.hand_for_hand,
            phase=state.phase,
        )

    def planner_may_act(self, table_id: int, paid_places: int) -> bool:
        """False only when `plan_after_hand(layout, table_id, …)` in standard mode certainly returns nothing.

        It mirrors the planner's documented triggers (table_planner module docstring): a break happens only when
        the players fit one table fewer, and then only at the finished table if it has the fewest players or at a
        single-player table; balancing only when the finished table is a largest one, 2+ above the smallest;
        hand-for-hand switches only when the bubble (players = paid places + 1, several tables) differs from the
        current mode. A test checks it against the planner on random layouts."""
        tables = len(self._state.tables)
        players = self.seated
        sizes = [size for size, count in self._sizes.items() if count > 0]
        size, fewest, most = len(self._state.tables[table_id].seats), min(sizes), max(sizes)
        if tables > tables_needed(players, self._settings.seats_per_table):
            may_act = size == fewest or fewest < 2
        else:
            may_act = size == most and most - fewest >= 2
        on_the_bubble = tables > 1 and players == paid_places + 1
        return may_act or on_the_bubble != self._state.hand_for_hand

    def apply(self, commands: Iterable[Command]) -> None:
        """Carry out a plan on the state: moves, broken tables, hand-for-hand and phase switches."""
        commands = tuple(commands)
        state = self._state
        touched = sorted(
            {command.source.table_id for command in commands if isinstance(command, MovePlayer)}
            | {command.target.table_id for command in commands if isinstance(command, MovePlayer)}
            | {command.table_id for command in commands if isinstance(command, BreakTable)}
        )
        before = Layout(
            tables=tuple(Table(table_id, state.tables[table_id].seats) for table_id in touched),
            hand_for_hand=state.hand_for_hand,
            phase=state.phase,
        )
        after = apply_plan(before, commands)
        for table_id in touched:
            self._sizes[len(state.tables[table_id].seats)] -= 1
        kept = {table.table_id: table for table in after.tables}
        for table_id in touched:
            if table_id not in kept:
                del state.tables[table_id]
                continue
            play = state.tables[table_id]
            play.seats = dict(kept[table_id].seats)
            self._sizes[len(play.seats)] += 1
            self._table_of.update((player, table_id) for player in play.seats.values())
        state.hand_for_hand, state.phase = after.hand_for_hand, after.phase
