"""Pure Texas Hold'em rules of the table engine: no I/O, no framework, deterministic given the deck.

Playing a hand::

    from random import SystemRandom
    from table_engine.domain import (
        Action, BettingStructure, CALL, Hand, HandConfig, SeatConfig, TableRules, shuffled_deck,
    )

    rules = TableRules(BettingStructure.NO_LIMIT, small_blind=50, big_blind=100, ante=100, big_blind_ante=True)
    config = HandConfig.from_button(rules, {1: SeatConfig("ann", 10_000), 4: SeatConfig("bob", 8_000)}, button=1)
    hand = Hand(config, shuffled_deck(SystemRandom()))     # the engine never shuffles (P-1.3)
    # The service's tables derive each deck from a committed seed: fair_deal.derive_deck (docs/fair-deal.md).
    hand.events                                            # forced bets, HoleCardsDealt (no card values)
    hand.hole_cards(4)                                     # private: send to seat 4's player only (P-1.4)
    legal = hand.legal_actions()                           # for hand.to_act
    events = hand.act(hand.to_act, Action.raise_to(legal.min_raise_to))
    ...
    hand.result                                            # once hand.is_complete

Conventions:
- Chips are ints. Cards are ints 0..51, ``rank * 4 + suit`` (``cards.parse_card("Ah") == 50``).
- Seats are the table's seat numbers (clockwise ascending). Between hands, ``seating.next_positions`` moves
  the button and blinds by the dead-button rule and says who is dealt in; ``HandConfig(rules, seats,
  positions)`` takes its result.
- Bets and raises are TOTAL street amounts ("raise to"); ``LegalActions.call`` is the chips a call adds.
  ``LegalActions`` gives exact bounds; anything else raises ``ActionRejected`` (``.code``: a
  ``RejectionCode``, ``.message``: a sentence) and leaves the hand unchanged.
- ``act`` returns the events it caused; ``Hand.events`` keeps them all. No event carries a hidden card, so the
  stream can be published as is; ``Hand.visible_hole_cards(viewer)`` is what a viewer may see.
- Evaluator: ``evaluate(cards)`` for 5 to 7 cards, higher is better; ``category``/``category_name``.
- ``random_play.random_action(legal, rng)``: a uniformly random legal action, for bots and simulations.
- Hand histories in PHH (per-viewer copies, replay): ``table_engine.phh``.
"""

from table_engine.domain.actions import CALL, CHECK, FOLD, MUCK, SHOW, Action, ActionKind, LegalActions
from table_engine.domain.cards import card_text, cards_text, parse_card, parse_cards, shuffled_deck
from table_engine.domain.errors import ActionRejected, InvalidConfiguration, RejectionCode
from table_engine.domain.evaluator import HandCategory, category, category_name, evaluate
from table_engine.domain.events import (
    ActionTaken,
    CardsMucked,
    CardsShown,
    Event,
    ForcedBet,
    ForcedBetPosted,
    HandCompleted,
    HoleCardsDealt,
    PotAwarded,
    Street,
    StreetDealt,
    UncalledBetReturned,
)
from table_engine.domain.hand import Hand
from table_engine.domain.pots import Pot
from table_engine.domain.result import HandResult, PotResult
from table_engine.domain.rules import BettingStructure, HandConfig, SeatConfig, TableRules
from table_engine.domain.seating import NextHand, Positions, initial_positions, next_positions

__all__ = [
    "CALL",
    "CHECK",
    "FOLD",
    "MUCK",
    "SHOW",
    "Action",
    "ActionKind",
    "ActionRejected",
    "ActionTaken",
    "BettingStructure",
    "CardsMucked",
    "CardsShown",
    "Event",
    "ForcedBet",
    "ForcedBetPosted",
    "Hand",
    "HandCategory",
    "HandCompleted",
    "HandConfig",
    "HandResult",
    "HoleCardsDealt",
    "InvalidConfiguration",
    "LegalActions",
    "NextHand",
    "Positions",
    "Pot",
    "PotAwarded",
    "PotResult",
    "RejectionCode",
    "SeatConfig",
    "Street",
    "StreetDealt",
    "TableRules",
    "UncalledBetReturned",
    "card_text",
    "cards_text",
    "category",
    "category_name",
    "evaluate",
    "initial_positions",
    "next_positions",
    "parse_card",
    "parse_cards",
    "shuffled_deck",
]
