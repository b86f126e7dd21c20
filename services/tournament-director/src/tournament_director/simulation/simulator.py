"""A whole tournament in one process: `TournamentRun` on the real rules engine, played by bots.

Time is simulated. Every hand takes `seconds_per_hand` at every table, so tables that start together finish
together: each such moment is one *table round*, and its results go to the run in one `on_hands_completed`
call (in table id order). Between rounds the run is told about the clock when a level or break changes. The
simulation plays the table engine's part (`SimTable`): it carries out the run's commands, deals, lets the bots
act, and answers offers (bots always rebuy when offered, and take an add-on half of the time).

Everything random comes from generators seeded with the seed: the same options give the same report.

Invariants checked as it goes (a failure raises `SimulationError`):
- chips are conserved in every hand, and in the whole tournament (stacks + chips bought − chips removed);
- when a table deals, its stacks are the ones the run has on record; moved players carry their stacks;
- standard mode: after each table round is planned, table sizes differ by at most one (P-6.3) — except after a
  round in which players left a table late (busted without a rebuy left while a tablemate decided on one: the
  table waited, and the others had dealt), which the next round must set right;
and at the end: every entrant ranked exactly once, positions 1..N, payouts (and a satellite's seats at their
price) summing to the prize pool, the players still in (the winner, or a satellite's seat winners) holding every
chip.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from platform_kit.events.table import (
    AddChips,
    CloseTable,
    HandCompleted,
    Level,
    OpenTable,
    SeatPlayer,
    StartHand,
    UnseatPlayer,
)
from platform_kit.events.tournament import AddonOffered, PlayerEliminated, RankedPlayer

from tournament_director.domain.kinds import TableMode
from tournament_director.domain.ranking import PlayerId
from tournament_director.domain.run import TournamentRun
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.simulation.setup import SimulationOptions, simulation_definition
from tournament_director.simulation.table import SimTable, SimulationError

START = datetime(2025, 1, 1, 18, 0, tzinfo=UTC)
#: The simulated tournaments' currency (amounts are cents of it).
CURRENCY = "EUR"
ADDON_TAKE_RATE = 0.5


@dataclass(frozen=True)
class SimulationReport:
    options: SimulationOptions
    ranking: tuple[RankedPlayer, ...]
    #: Prize by position, 1st first (P-8.5).
    payouts_cents: tuple[int, ...]
    prize_pool_cents: int
    prize_pool_from_entries_cents: int
    guarantee_overlay_cents: int
    entries: int
    hands_played: int
    table_rounds: int
    final_level: int
    simulated_seconds: int
    #: Largest table-size gap after a table round's moves; None in shoot-out mode, where tables never balance.
    max_table_size_gap: int | None
    checks: dict[str, bool] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        options = self.options
        return {
            "options": {
                "players": options.players,
                "seed": options.seed,
                "kind": options.kind.value,
                "mode": options.mode.value,
                "buy_in": {"prize_part_cents": options.buy_in.prize_part_cents, "fee_cents": options.buy_in.fee_cents},
                "starting_stack": options.starting_stack,
                "seconds_per_hand": options.seconds_per_hand,
                "rebuys": options.rebuys,
                "satellite_seat": None if options.satellite_seat is None else options.satellite_seat.model_dump(),
            },
            "prize_pool_cents": self.prize_pool_cents,
            "prize_pool_from_entries_cents": self.prize_pool_from_entries_cents,
            "guarantee_overlay_cents": self.guarantee_overlay_cents,
            "entries": self.entries,
            "hands_played": self.hands_played,
            "table_rounds": self.table_rounds,
            "final_level": self.final_level,
            "simulated_seconds": self.simulated_seconds,
            "max_table_size_gap": self.max_table_size_gap,
            "checks": dict(self.checks),
            "payouts_cents": list(self.payouts_cents),
            "ranking": [
                {
                    "position": ranked.position,
                    "player_id": ranked.player_id,
                    "prize_cents": ranked.prize_cents,
                    "seat": ranked.seat,
                }
                for ranked in self.ranking
            ],
        }


def simulate(options: SimulationOptions, observer: Callable[[Message], None] | None = None) -> SimulationReport:
    """Play the tournament `options` describe to its end and check it (raises `SimulationError`). `observer`
    sees every message the run gives, in order (tests use it)."""
    return _Simulation(options, observer).play()


class _Simulation:
    def __init__(self, options: SimulationOptions, observer: Callable[[Message], None] | None) -> None:
        self.options = options
        self.observer = observer
        self.definition = simulation_definition(options)
        self.players = [f"p{number:0{len(str(options.players))}d}" for number in range(1, options.players + 1)]
        self.seating_rng = random.Random(f"{options.seed}:seating")
        self.deck_rng = random.Random(f"{options.seed}:decks")
        self.bot_rng = random.Random(f"{options.seed}:bots")
        self.now = START
        self.tables: dict[str, SimTable] = {}
        #: Players between an unseat and a seat (a move, a new shoot-out phase), with their stacks.
        self.lobby: dict[PlayerId, int] = {}
        #: Hands dealt and played, waiting for their completion time: (time, table id), and their facts.
        self.in_progress: list[tuple[datetime, str]] = []
        self.results: dict[str, HandCompleted] = {}
        self.chips_bought = 0
        self.purchases = 0
        self.hands_played = 0
        self.table_rounds = 0
        self.max_gap = 0
        self.eliminated: list[PlayerId] = []
        #: Whether players left a table after the other tables dealt in this round (see `_carry_out`).
        self.late_leavers = False
        self.run, self.start_messages = TournamentRun.start(
            f"sim-{options.seed}", self.definition, self.players, self.seating_rng, self.now, currency=CURRENCY
        )

    def play(self) -> SimulationReport:
        run = self.run
        self.lobby = dict.fromkeys(self.players, self.definition.starting_stack)
        self._carry_out(self.start_messages)
        while not run.is_over:
            next_result = self.in_progress[0][0] if self.in_progress else None
            next_clock = run.next_clock_change()
            if next_result is None and next_clock is None:
                raise SimulationError("no table can play and the clock will not change: the tournament is stuck")
            if next_result is None or (next_clock is not None and next_clock < next_result):
                assert next_clock is not None
                self.now = next_clock
                self._carry_out(run.on_clock(self.now))
                continue
            self.now = next_result
            facts = []
            while self.in_progress and self.in_progress[0][0] == self.now:
                facts.append(self.results.pop(heapq.heappop(self.in_progress)[1]))
            self.table_rounds += 1
            self._carry_out(run.on_hands_completed(facts, self.now))
            self._check_round()
        return self._report()

    # ----------------------------------------------------------------------------------- the engine's part

    def _carry_out(self, messages: tuple[Message, ...]) -> None:
        """Carry out a call's messages in order, then answer the offers among them (each answer is a call of its
        own, whose messages are carried out in turn) — as the service publishes a call's messages before any
        player can answer."""
        run = self.run
        offers = self._apply(messages)
        while offers:
            offer = offers.pop(0)
            if isinstance(offer, OfferRebuy):
                answer = run.rebuy(offer.player_id, self.now)
                # A busted player who had no rebuy left waited with the table for this answer, and leaves only
                # now, after the other tables dealt: they can balance only after their next hand.
                self.late_leavers |= any(
                    isinstance(message, UnseatPlayer) and message.reason == "busted" for message in answer
                )
                offers.extend(self._apply(answer))
            elif self.bot_rng.random() < ADDON_TAKE_RATE and run.addon_refusal(offer.player_id, self.now) is None:
                offers.extend(self._apply(run.addon(offer.player_id, self.now)))

    def _apply(self, messages: tuple[Message, ...]) -> list[OfferRebuy | AddonOffered]:
        """What the table engine does with the commands; returns the offers for the bots to answer."""
        offers: list[OfferRebuy | AddonOffered] = []
        for message in messages:
            if self.observer is not None:
                self.observer(message)
            match message:
                case OpenTable(table_id=table_id, betting_structure=structure, seats=seats):
                    table = self.tables[table_id] = SimTable(self.run.tournament_id, table_id, structure)
                    for seated in seats:
                        table.seat(seated.seat, seated.player_id, self._from_lobby(seated.player_id, seated.stack))
                case SeatPlayer(table_id=table_id, player=seated):
                    stack = self._from_lobby(seated.player_id, seated.stack)
                    self.tables[table_id].seat(seated.seat, seated.player_id, stack)
                case UnseatPlayer(table_id=table_id, player_id=player, reason=reason):
                    stack = self.tables[table_id].unseat(player)
                    if reason == "moved":
                        self.lobby[player] = stack
                    elif stack:
                        raise SimulationError(f"{player} left {table_id} ({reason}) with {stack} chips")
                case AddChips(table_id=table_id, player_id=player, amount=amount):
                    self.tables[table_id].stacks[player] += amount
                    self.chips_bought += amount
                    self.purchases += 1
                case StartHand(table_id=table_id, hand_no=hand_no, level=level):
                    self._deal(self.tables[table_id], hand_no, level)
                case CloseTable(table_id=table_id):
                    table = self.tables.pop(table_id)
                    self.lobby.update(table.stacks)
                case OfferRebuy() | AddonOffered():
                    offers.append(message)
                case PlayerEliminated(player_id=player):
                    self.eliminated.append(player)
        return offers

    def _from_lobby(self, player: PlayerId, stack: int) -> int:
        """A player sits down with the chips they left their last seat with."""
        held = self.lobby.pop(player, None)
        if held != stack:
            raise SimulationError(f"{player} sits down with {stack} chips on record but holds {held}")
        return stack

    def _deal(self, table: SimTable, hand_no: int, level: Level) -> None:
        on_record = self.run.chips
        for player, stack in table.stacks.items():
            if on_record.get(player) != stack:
                raise SimulationError(
                    f"{player} holds {stack} at {table.table_id}, the run says {on_record.get(player)}"
                )
        fact = table.play_hand(hand_no, level, self.deck_rng, self.bot_rng)
        self.hands_played += 1
        self.results[table.table_id] = fact
        heapq.heappush(self.in_progress, (self.now + timedelta(seconds=self.options.seconds_per_hand), table.table_id))

    # -------------------------------------------------------------------------------------------- checks

    def _check_round(self) -> None:
        run = self.run
        expected = len(self.players) * self.definition.starting_stack + self.chips_bought - run.chips_removed
        held = sum(sum(table.stacks.values()) for table in self.tables.values()) + sum(self.lobby.values())
        if held != expected:
            raise SimulationError(f"{held} chips in play, {expected} expected")
        late_leavers, self.late_leavers = self.late_leavers, False
        if self.options.mode is TableMode.STANDARD and not run.is_over and not late_leavers:
            gap = run.size_gap()
            self.max_gap = max(self.max_gap, gap)
            if gap > 1:
                raise SimulationError(f"table sizes differ by {gap} after the moves: {run.table_sizes()}")

    def _report(self) -> SimulationReport:
        run = self.run
        outcome = run.outcome
        assert outcome is not None
        ranking = outcome.event.ranking
        ranked = [ranked.player_id for ranked in ranking]
        positions = sorted(ranked.position for ranked in ranking)
        total = len(self.players) * self.definition.starting_stack + self.chips_bought
        satellite = self.definition.satellite
        seats_cents = 0 if satellite is None else len(outcome.seat_winners) * satellite.seat_price.total_cents
        survivors = run.players_left
        checks = {
            "every_player_ranked_once": sorted(ranked) == sorted(self.players),
            "positions_1_to_n": positions == list(range(1, len(self.players) + 1))
            or (satellite is not None and _survivors_tied_first(positions, len(survivors))),
            "every_loser_eliminated_once": sorted(self.eliminated)
            == sorted(p for p in self.players if p not in survivors),
            "payouts_sum_to_prize_pool": sum(outcome.prizes.values()) + seats_cents == outcome.funding.pool_cents,
            "winner_holds_every_chip": run.chips_in_play == total - run.chips_removed,
            "chips_conserved_every_hand": True,  # play_hand and _check_round raise otherwise
            "table_sizes_within_one": self.options.mode is TableMode.SHOOTOUT or self.max_gap <= 1,
        }
        if not all(checks.values()):
            raise SimulationError(f"failed checks: {[name for name, ok in checks.items() if not ok]}")
        return SimulationReport(
            options=self.options,
            ranking=tuple(ranking),
            payouts_cents=outcome.amounts,
            prize_pool_cents=outcome.funding.pool_cents,
            prize_pool_from_entries_cents=outcome.funding.collected_cents,
            guarantee_overlay_cents=outcome.funding.overlay_cents,
            entries=len(self.players) + self.purchases,
            hands_played=self.hands_played,
            table_rounds=self.table_rounds,
            final_level=run.level[0],
            simulated_seconds=int((self.now - START).total_seconds()),
            max_table_size_gap=self.max_gap if self.options.mode is TableMode.STANDARD else None,
            checks=checks,
        )


def _survivors_tied_first(positions: list[int], survivors: int) -> bool:
    """A satellite's survivors all rank 1st (P-3.4); the others from `survivors` + 1 down."""
    return positions == [1] * survivors + list(range(survivors + 1, len(positions) + 1))
