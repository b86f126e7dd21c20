"""One simulated table: what the table-engine service does for a table, on the real rules engine, in memory.

It keeps the seats and stacks, moves the button by the dead-button rule (`next_positions`), deals each hand
with a seeded deck, plays it out with bots and reports it as the engine does: `table.hand.completed`.
"""

from __future__ import annotations

import random

from platform_kit.events.table import HandCompleted, Level, PotResult, SeatResult, ShownHand
from table_engine.domain import (
    BettingStructure,
    Hand,
    HandConfig,
    Positions,
    SeatConfig,
    TableRules,
    card_text,
    category,
    evaluate,
    initial_positions,
    next_positions,
    shuffled_deck,
)

from tournament_director.domain.ranking import PlayerId
from tournament_director.simulation.bots import bot_action


class SimulationError(AssertionError):
    """An invariant of the simulation broke: a bug in the director or the engine, never bad luck."""


class SimTable:
    """Seats (seat -> player), stacks and the button of one table."""

    def __init__(self, tournament_id: str, table_id: str, structure: str) -> None:
        self.tournament_id = tournament_id
        self.table_id = table_id
        self._structure = BettingStructure(structure)
        self.seats: dict[int, PlayerId] = {}
        self.stacks: dict[PlayerId, int] = {}
        self._positions: Positions | None = None

    def seat(self, seat: int, player_id: PlayerId, stack: int) -> None:
        if seat in self.seats:
            raise SimulationError(f"{self.table_id}: seat {seat} is taken")
        self.seats[seat] = player_id
        self.stacks[player_id] = stack

    def unseat(self, player_id: PlayerId) -> int:
        """Remove a player; returns their stack."""
        seat = next(seat for seat, player in self.seats.items() if player == player_id)
        del self.seats[seat]
        return self.stacks.pop(player_id)

    def play_hand(self, hand_no: int, level: Level, deck_rng: random.Random, bot_rng: random.Random) -> HandCompleted:
        """Deal and play one hand to the end; stacks move at once, the fact is for the director."""
        positions, dealt_in = self._next_hand(deck_rng)
        rules = TableRules(
            self._structure,
            level.small_blind,
            level.big_blind,
            level.ante,
            level.big_blind_ante,
            uncapped_heads_up=False,
        )
        seats = {seat: SeatConfig(self.seats[seat], self.stacks[self.seats[seat]]) for seat in dealt_in}
        hand = Hand(HandConfig(rules, seats, positions), shuffled_deck(deck_rng))
        while (seat := hand.to_act) is not None:
            hand.act(seat, bot_action(hand.legal_actions(), bot_rng))
        result = hand.result
        if sum(result.start_stacks.values()) != sum(result.end_stacks.values()):
            raise SimulationError(f"{self.table_id} hand {hand_no}: chips were not conserved")
        self._positions = positions
        for seat, stack in result.end_stacks.items():
            self.stacks[self.seats[seat]] = stack
        return HandCompleted(
            table_id=self.table_id,
            tournament_id=self.tournament_id,
            hand_id=f"{self.table_id}#{hand_no}",
            hand_no=hand_no,
            button_seat=positions.button,
            board=[card_text(card) for card in result.board],
            results=[
                SeatResult(
                    seat=seat,
                    player_id=self.seats[seat],
                    start_stack=result.start_stacks[seat],
                    end_stack=result.end_stacks[seat],
                )
                for seat in sorted(dealt_in)
            ],
            pots=[
                PotResult(
                    amount=pot.amount,
                    eligible_seats=list(pot.eligible),
                    winner_seats=list(pot.shares),
                    shares=list(pot.shares.values()),
                )
                for pot in result.pots
            ],
            shown=[
                ShownHand(
                    seat=seat,
                    player_id=self.seats[seat],
                    cards=[card_text(card) for card in cards],
                    category=category(evaluate((*cards, *result.board))).name.lower(),
                )
                for seat, cards in sorted(result.shown.items())
            ],
            busted_player_ids=[self.seats[seat] for seat in result.busted],
        )

    def _next_hand(self, rng: random.Random) -> tuple[Positions, tuple[int, ...]]:
        """The dead-button rule between hands, as the table engine applies it; a table's first hand draws the
        button."""
        occupied = sorted(self.seats)
        if self._positions is not None:
            following = next_positions(self._positions, occupied)
            return following.positions, following.dealt_in
        return initial_positions(occupied, rng.choice(occupied)), tuple(occupied)
