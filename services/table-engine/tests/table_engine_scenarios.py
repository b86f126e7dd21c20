"""Builders for rule tests: a table with given stacks, a hand with chosen cards, a list of moves."""

from __future__ import annotations

from collections.abc import Sequence

from table_engine.domain import (
    Action,
    BettingStructure,
    Event,
    Hand,
    HandConfig,
    SeatConfig,
    TableRules,
    parse_cards,
)
from table_engine.domain.cards import arrange_deck


def table(
    *stacks: int,
    structure: BettingStructure = BettingStructure.NO_LIMIT,
    small_blind: int = 50,
    big_blind: int = 100,
    ante: int = 0,
    big_blind_ante: bool = False,
    raise_cap: int | None = 4,
    uncapped_heads_up: bool = True,
    manual_showdown: bool = False,
) -> HandConfig:
    """Seats 1..n with these stacks, the button on the last seat: seat 1 posts the small blind and seat 2 the
    big blind (heads-up: seat 2 is button and small blind, seat 1 the big blind). Dealing order is seat order.
    """
    table_rules = TableRules(
        structure,
        small_blind,
        big_blind,
        ante,
        big_blind_ante,
        raise_cap=raise_cap,
        uncapped_heads_up=uncapped_heads_up,
    )
    seats = {number: SeatConfig(f"player-{number}", stack) for number, stack in enumerate(stacks, 1)}
    return HandConfig.from_button(table_rules, seats, button=len(stacks), manual_showdown=manual_showdown)


def deal(config: HandConfig, holes: Sequence[str | None] = (), board: str = "") -> Hand:
    """A hand where the players (in dealing order) hold ``holes`` ("AhKd", None for any) and the board is
    ``board`` ("AsKdQh2c3d", or a prefix)."""
    players = len(config.order)
    hole_cards = [parse_cards(text) if text else None for text in holes] + [None] * (players - len(holes))
    return Hand(config, arrange_deck(hole_cards, parse_cards(board)))


def play(hand: Hand, *moves: tuple[int, Action]) -> list[Event]:
    """Apply (seat, action) moves in order; the events of the last one."""
    events: list[Event] = []
    for seat, action in moves:
        events = hand.act(seat, action)
    return events
