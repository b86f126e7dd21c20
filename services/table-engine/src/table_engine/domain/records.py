"""A hand as stored: its configuration, deck and applied actions, from which the engine rebuilds it exactly.

The engine is deterministic given the deck, so replaying the recorded actions gives back the very same `Hand`:
that is how a history (PHH) is written for any hand, by any shard, and how a shard rebuilds a hand it lost
from memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from platform_kit.events.table import Level

from table_engine.domain import (
    Action,
    ActionKind,
    BettingStructure,
    Hand,
    HandConfig,
    Positions,
    SeatConfig,
    TableRules,
    cards_text,
    parse_cards,
)


class RecordedAction(NamedTuple):
    """An action the engine applied. Bets and raises are recorded as "raise to" `amount` (the engine treats
    BET and RAISE alike); other kinds carry 0."""

    seat: int
    kind: ActionKind
    amount: int = 0

    @property
    def action(self) -> Action:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            return Action.raise_to(self.amount)
        return Action(self.kind)

    def to_json(self) -> list[Any]:
        return [self.seat, self.kind.value, self.amount]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> RecordedAction:
        return cls(int(data[0]), ActionKind(data[1]), int(data[2]))


def rules_for(structure: BettingStructure, level: Level, *, tournament: bool) -> TableRules:
    """The engine's rules for a level. Fixed-limit keeps its raise cap when a tournament table is briefly
    heads-up: WSOP rule 100b lifts it only once the whole tournament is heads-up, which a table cannot know."""
    return TableRules(
        structure,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        big_blind_ante=level.big_blind_ante,
        uncapped_heads_up=not tournament,
    )


def config_to_json(config: HandConfig) -> dict[str, Any]:
    rules = config.rules
    positions = config.positions
    return {
        "rules": {
            "structure": rules.structure.value,
            "small_blind": rules.small_blind,
            "big_blind": rules.big_blind,
            "ante": rules.ante,
            "big_blind_ante": rules.big_blind_ante,
            "raise_cap": rules.raise_cap,
            "uncapped_heads_up": rules.uncapped_heads_up,
        },
        "positions": positions_to_json(positions),
        "seats": {str(seat): [s.player_id, s.stack] for seat, s in config.seats.items()},
    }


def config_from_json(data: Mapping[str, Any]) -> HandConfig:
    rules = dict(data["rules"])
    rules["structure"] = BettingStructure(rules["structure"])
    seats = {int(seat): SeatConfig(player_id, int(stack)) for seat, (player_id, stack) in data["seats"].items()}
    return HandConfig(TableRules(**rules), seats, positions_from_json(data["positions"]))


def positions_to_json(positions: Positions) -> dict[str, int]:
    return {"button": positions.button, "small_blind": positions.small_blind, "big_blind": positions.big_blind}


def positions_from_json(data: Mapping[str, Any]) -> Positions:
    return Positions(int(data["button"]), int(data["small_blind"]), int(data["big_blind"]))


def seat_map_to_json(values: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): value for seat, value in values.items()}


def seat_map_from_json(data: Mapping[str, Any]) -> dict[int, int]:
    return {int(seat): int(value) for seat, value in data.items()}


def deck_to_text(deck: Iterable[int]) -> str:
    return cards_text(deck)


def deck_from_text(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def replay(config: HandConfig, deck: Sequence[int], actions: Iterable[RecordedAction]) -> Hand:
    """The hand after `actions`: exactly the one that was played, since the engine never shuffles."""
    hand = Hand(config, deck)
    for recorded in actions:
        hand.act(recorded.seat, recorded.action)
    return hand
