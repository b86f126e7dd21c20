"""The domain events a hand emits, in order.

Privacy (P-1.4): no event carries a card that is not public. Hole cards are never in an event until they are
shown (``CardsShown``); the service sends each player their own cards from ``Hand.hole_cards(seat)``. So the
whole event stream may be published to every seat and spectator as is.

Events are NamedTuples: immutable, cheap to build in the hot path, and matchable with ``match``/``case``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

from table_engine.domain.actions import ActionKind


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4
    COMPLETE = 5


class ForcedBet(StrEnum):
    ANTE = "ante"
    BIG_BLIND_ANTE = "big_blind_ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"


class ForcedBetPosted(NamedTuple):
    seat: int
    kind: ForcedBet
    amount: int
    all_in: bool


class HoleCardsDealt(NamedTuple):
    """Two cards went to each of ``seats`` (in dealing order). Which cards: ``Hand.hole_cards(seat)``."""

    seats: tuple[int, ...]


class ActionTaken(NamedTuple):
    """A betting action. ``added``: chips put in now; ``total_bet``: the seat's street bet afterwards."""

    seat: int
    kind: ActionKind
    added: int
    total_bet: int
    all_in: bool


class StreetDealt(NamedTuple):
    street: Street
    cards: tuple[int, ...]
    board: tuple[int, ...]


class UncalledBetReturned(NamedTuple):
    seat: int
    amount: int


class CardsShown(NamedTuple):
    seat: int
    cards: tuple[int, int]


class CardsMucked(NamedTuple):
    seat: int


class PotAwarded(NamedTuple):
    """Pot number ``pot_index`` (0 is the main pot) of ``amount`` chips, shared as ((seat, chips), ...)."""

    pot_index: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]


class HandCompleted(NamedTuple):
    """The hand is over. ``end_stacks``: ((seat, chips), ...) in dealing order; details in ``Hand.result``."""

    end_stacks: tuple[tuple[int, int], ...]


Event = (
    ForcedBetPosted
    | HoleCardsDealt
    | ActionTaken
    | StreetDealt
    | UncalledBetReturned
    | CardsShown
    | CardsMucked
    | PotAwarded
    | HandCompleted
)
