"""Cards as small ints, their text form, and the deck.

A card is ``rank * 4 + suit``: rank 0..12 for deuce..ace, suit 0..3 for clubs, diamonds, hearts, spades.
That is the numbering of the C evaluator we use (phevaluator), so hands reach it without conversion.
Text form is the usual two characters (``"Ah"``, ``"Td"``), as in the PHH format.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Protocol

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
CARD_SET = frozenset(FULL_DECK)

_TEXT = tuple(rank + suit for rank in RANKS for suit in SUITS)
_BY_TEXT = {text: index for index, text in enumerate(_TEXT)}


class SupportsShuffle(Protocol):
    """What ``shuffled_deck`` needs from a generator: ``random.Random`` and ``random.SystemRandom`` fit."""

    def shuffle(self, x: MutableSequence[int], /) -> None: ...


def shuffled_deck(rng: SupportsShuffle) -> list[int]:
    """A fresh 52-card deck shuffled by ``rng``: for simulations and tests.

    The engine itself never shuffles: the caller injects the deck. The tables the service hosts derive theirs
    from a committed seed instead (``fair_deal.derive_deck``, P-1.3), so that players can verify them.
    """
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def parse_card(text: str) -> int:
    """``"Ah"`` -> 50. Raises ``ValueError`` for anything that is not one known card."""
    try:
        return _BY_TEXT[text]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def parse_cards(text: str) -> tuple[int, ...]:
    """``"AhKd"`` -> (50, 45): concatenated two-character cards, no separators."""
    if len(text) % 2:
        raise ValueError(f"not a list of cards: {text!r}")
    return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


def card_text(card: int) -> str:
    """50 -> ``"Ah"``."""
    return _TEXT[card]


def cards_text(cards: Iterable[int]) -> str:
    """(50, 45) -> ``"AhKd"``."""
    return "".join(_TEXT[card] for card in cards)


def cards_needed(players: int) -> int:
    """Cards a hand of ``players`` deals, burns included: two each, then burn + 3, burn + 1, burn + 1."""
    return 2 * players + 8


def board_slots(players: int) -> tuple[int, int, int, int, int]:
    """Deck positions of the flop, turn and river cards in a hand of ``players`` (after each street's burn)."""
    base = 2 * players
    return base + 1, base + 2, base + 3, base + 5, base + 7


def arrange_deck(hole_cards: Sequence[Sequence[int] | None], board: Sequence[int] = ()) -> list[int]:
    """A 52-card deck from which a hand deals exactly these hole cards and board.

    ``hole_cards`` lists each player's two cards in dealing order (clockwise from the button's left), None
    for "any"; ``board`` the first board cards. Player ``i`` of ``n`` is dealt ``deck[i]`` and
    ``deck[i + n]``. Every other slot gets the lowest unused card. For replays, audits and tests.
    """
    players = len(hole_cards)
    slots: list[int | None] = [None] * DECK_SIZE
    for index, cards in enumerate(hole_cards):
        if cards is not None:
            slots[index], slots[index + players] = cards
    if len(board) > 5:
        raise ValueError(f"a board has at most 5 cards, not {len(board)}")
    for slot, card in zip(board_slots(players), board, strict=False):
        slots[slot] = card
    used = [card for card in slots if card is not None]
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    spare = iter(sorted(CARD_SET.difference(used)))
    return [next(spare) if card is None else card for card in slots]


def validated_deck(deck: Sequence[int], needed: int) -> tuple[int, ...]:
    """``deck`` as a tuple of card ints; ``ValueError`` unless it holds ``needed`` distinct cards or more."""
    try:
        cards = tuple(map(operator.index, deck))  # ints only: a float or a string is refused
    except TypeError:
        raise ValueError(f"a deck holds card ints 0..51, not {list(deck)!r}") from None
    if len(cards) < needed:
        raise ValueError(f"the deck has {len(cards)} cards, the hand needs {needed}")
    if len(set(cards)) != len(cards) or not CARD_SET.issuperset(cards):
        raise ValueError(f"the deck repeats a card or holds something else: {list(cards)!r}")
    return cards
