"""The tables of a running tournament (P-6, P-7): bus ids, planning after hands, carrying plans out, dealing.

`TableFlow` is `TournamentRun`'s table side. It decides nothing about chips or eliminations; it turns the
planner's commands (`plan_after_hand`) into table commands and lobby events, and says which tables deal next.

- Planning: each table that finishes a hand is planned (`plan_finished`); then, in standard mode, every table
  between hands is planned again until nothing changes (`balance_all`), so that tables between hands together
  (a break, a hand-for-hand round, a batch of results) end up balanced (P-6.2, P-6.3).
  `LiveSeating.planner_may_act` skips the calls that would return nothing. Shoot-out tables are planned only
  when they finish a hand (P-6.4).
- Dealing: never during a break (P-7.2); in hand-for-hand only when no table is in a hand, all together, as one
  numbered round (P-6.6); never at a table with fewer than two players or held (P-6.4).
- Table ids on the bus are `"<tournament id>/<phase>/<table number>"`: each shoot-out phase opens fresh tables
  (with a new button draw), standard tables keep their id for the whole tournament.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from platform_kit.events.table import CloseTable, Level, OpenTable, SeatedPlayer, SeatPlayer, StartHand, UnseatPlayer
from platform_kit.events.tournament import (
    FinalTableStarted,
    HandForHandChanged,
    PlayerMoved,
    ShootoutPhaseStarted,
    TableBroken,
    TableHeld,
)

from tournament_director.domain.blind_clock import ClockReading
from tournament_director.domain.kinds import TableMode
from tournament_director.domain.run_messages import Message
from tournament_director.domain.run_seating import LiveSeating
from tournament_director.domain.run_state import RunState, TableStatus
from tournament_director.domain.seating import (
    BreakTable,
    Command,
    FinalTableReached,
    HoldTable,
    MovePlayer,
    MoveReason,
    StartHandForHand,
    StartShootoutPhase,
    StopHandForHand,
)
from tournament_director.domain.table_planner import plan_after_hand

#: Planning converges in a few passes; more means a planner bug, not a big field.
_MAX_PLANNING_PASSES = 1_000
_MOVE_REASONS: dict[MoveReason, Literal["table_broken", "balancing", "shootout_regroup"]] = {
    MoveReason.TABLE_BROKEN: "table_broken",
    MoveReason.BALANCING: "balancing",
    MoveReason.NEW_PHASE: "shootout_regroup",
}


class UnknownTable(ValueError):
    """A bus table id that is not an open table of the tournament's current phase."""


class TableFlow:
    def __init__(self, state: RunState, seating: LiveSeating, rng: random.Random, paid_places: int) -> None:
        self._state = state
        self._seating = seating
        self._rng = rng
        self._paid_places = paid_places

    # ------------------------------------------------------------------------------------------------ ids

    def key(self, table_id: int, phase: int | None = None) -> str:
        """The bus id of table `table_id` in `phase` (default: the current one): `<tournament>.<phase>.<n>`, with no
        `/`, so that it can stand as one segment of a URL path (the table engine's and gateway's routes)."""
        return f"{self._state.tournament_id}.{self._state.phase if phase is None else phase}.{table_id}"

    def number(self, key: str) -> int:
        """The table number of an open table's bus id (raises `UnknownTable`)."""
        prefix, _, number = key.rpartition(".")
        if prefix != f"{self._state.tournament_id}.{self._state.phase}" or not number.isdigit():
            raise UnknownTable(f"{key} is not a table of this tournament's current phase")
        if int(number) not in self._state.tables:
            raise UnknownTable(f"{key} is not open")
        return int(number)

    def open(self, table_id: int) -> OpenTable:
        state = self._state
        seats = state.tables[table_id].seats
        return OpenTable(
            table_id=self.key(table_id),
            tournament_id=state.tournament_id,
            max_seats=state.definition.tables.seats_per_table,
            betting_structure=state.definition.betting_structure,
            seats=[
                SeatedPlayer(seat=seat, player_id=player, stack=state.chips[player])
                for seat, player in sorted(seats.items())
            ],
        )

    # ------------------------------------------------------------------------------------------- planning

    def plan_finished(self, table_ids: Sequence[int], out: list[Message]) -> None:
        """Plan each table that just finished a hand, as the planner expects to be called."""
        shootout = self._state.definition.tables.mode is TableMode.SHOOTOUT
        for table_id in table_ids:
            table = self._state.tables.get(table_id)  # an earlier plan may have broken it
            if table is None or table.status is not TableStatus.IDLE:
                continue
            if shootout or self._seating.planner_may_act(table_id, self._paid_places):
                self._plan_table(table_id, out)

    def balance_all(self, out: list[Message]) -> None:
        """Standard mode: plan every table between hands again until nothing changes, so that tables between
        hands together end up balanced (P-6.2, P-6.3). Shoot-out tables never balance (P-6.4)."""
        state = self._state
        if state.definition.tables.mode is TableMode.SHOOTOUT:
            return
        for _ in range(_MAX_PLANNING_PASSES):
            changed = False
            for table_id in sorted(state.tables):
                table = state.tables.get(table_id)  # an earlier plan of this pass may have broken it
                between_hands = table is not None and table.status is TableStatus.IDLE
                if between_hands and self._seating.planner_may_act(table_id, self._paid_places):
                    changed |= self._plan_table(table_id, out)
            if not changed:
                return
        raise AssertionError("table planning did not settle")

    def _plan_table(self, table_id: int, out: list[Message]) -> bool:
        plan = plan_after_hand(
            self._seating.layout(),
            table_id,
            self._state.definition.tables,
            paid_places=self._paid_places,
            rng=self._rng,
        )
        self.carry_out(plan, out)
        return bool(plan)

    def carry_out(self, plan: Sequence[Command], out: list[Message]) -> None:
        """Apply a plan to the seating and say what it means for the tables and the lobby."""
        state = self._state
        old_phase = state.phase
        self._seating.apply(plan)
        for command in plan:
            match command:
                case MovePlayer(player_id=player, source=source, target=target, reason=reason):
                    source_key, target_key = self.key(source.table_id, old_phase), self.key(target.table_id)
                    if reason is not MoveReason.NEW_PHASE:  # a new phase reopens every table instead
                        out.append(UnseatPlayer(table_id=source_key, player_id=player, reason="moved"))
                        seated = SeatedPlayer(seat=target.seat, player_id=player, stack=state.chips[player])
                        out.append(SeatPlayer(table_id=target_key, player=seated))
                    moved = PlayerMoved(
                        tournament_id=state.tournament_id,
                        player_id=player,
                        from_table_id=source_key,
                        to_table_id=target_key,
                        to_seat=target.seat,
                        reason=_MOVE_REASONS[reason],
                    )
                    out.append(moved)
                case BreakTable(table_id=table_id):
                    key = self.key(table_id, old_phase)
                    out.append(CloseTable(table_id=key, reason="table_broken"))
                    out.append(TableBroken(tournament_id=state.tournament_id, table_id=key))
                case HoldTable(table_id=table_id):
                    state.tables[table_id].status = TableStatus.HELD
                    out.append(TableHeld(tournament_id=state.tournament_id, table_id=self.key(table_id)))
                case StartHandForHand() | StopHandForHand():
                    on = isinstance(command, StartHandForHand)
                    out.append(HandForHandChanged(tournament_id=state.tournament_id, on=on))
                case FinalTableReached(table_id=table_id):
                    out.append(FinalTableStarted(tournament_id=state.tournament_id, table_id=self.key(table_id)))
                case StartShootoutPhase(phase=phase):
                    if old_phase == 1:
                        state.table_winners = sorted(state.chips)  # everyone still seated won their table
                    self._reopen_tables(old_phase, out)
                    keys = [self.key(table_id) for table_id in sorted(state.tables)]
                    out.append(ShootoutPhaseStarted(tournament_id=state.tournament_id, phase=phase, tables=keys))

    def _reopen_tables(self, old_phase: int, out: list[Message]) -> None:
        """P-6.4: a new shoot-out phase plays on fresh tables (new ids, a new button draw). Every table of the
        old phase closes before any new one opens: the regrouped players come from all of them."""
        tables = sorted(self._state.tables.items())
        out.extend(
            CloseTable(table_id=self.key(table_id, old_phase), reason="shootout_phase_over") for table_id, _ in tables
        )
        for table_id, table in tables:
            table.status, table.button_seat, table.hand_no, table.hand_for_hand_round = TableStatus.IDLE, None, 0, None
            out.append(self.open(table_id))

    # -------------------------------------------------------------------------------------------- dealing

    def start_hands(self, clock: ClockReading, out: list[Message]) -> None:
        """Deal at every table allowed to (rules in the module docstring)."""
        state = self._state
        if clock.on_break is not None:
            return
        ready = [
            table_id
            for table_id, table in sorted(state.tables.items())
            if table.status is TableStatus.IDLE and len(table.seats) >= 2
        ]
        if not ready:
            return
        round_no = None
        if state.hand_for_hand:
            if any(table.status in (TableStatus.PLAYING, TableStatus.SETTLING) for table in state.tables.values()):
                return
            state.hand_for_hand_round += 1
            round_no = state.hand_for_hand_round
        blinds = clock.level
        level = Level(
            small_blind=blinds.small_blind,
            big_blind=blinds.big_blind,
            ante=blinds.ante,
            big_blind_ante=state.definition.blinds.big_blind_ante,
        )
        for table_id in ready:
            table = state.tables[table_id]
            table.hand_no += 1
            table.status = TableStatus.PLAYING
            table.hand_level = clock.level_number
            table.hand_for_hand_round = round_no
            out.append(StartHand(table_id=self.key(table_id), hand_no=table.hand_no, level=level))

    def round_in_progress(self) -> bool:
        """Whether a table of the current hand-for-hand round has not settled its hand yet."""
        current = self._state.hand_for_hand_round
        return any(
            table.hand_for_hand_round == current and table.status in (TableStatus.PLAYING, TableStatus.SETTLING)
            for table in self._state.tables.values()
        )
