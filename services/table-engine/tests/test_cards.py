"""Cards, decks and dealing layout (P-1.3: the engine never shuffles; the injected generator does)."""

from __future__ import annotations

import random

import pytest
from table_engine.domain import card_text, cards_text, parse_card, parse_cards, shuffled_deck
from table_engine.domain.cards import FULL_DECK, arrange_deck, board_slots, cards_needed, validated_deck


def test_card_text_round_trips() -> None:
    assert parse_card("2c") == 0
    assert parse_card("Ah") == 50
    assert [card_text(card) for card in FULL_DECK] == [cards_text([card]) for card in FULL_DECK]
    assert parse_cards(cards_text(FULL_DECK)) == FULL_DECK


@pytest.mark.parametrize("text", ["", "A", "1c", "Ax", "ah", "??"])
def test_parse_card_refuses_what_is_not_one_card(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


def test_parse_cards_refuses_odd_lengths() -> None:
    with pytest.raises(ValueError):
        parse_cards("AhK")


def test_p1_3_shuffled_deck_uses_the_injected_generator() -> None:
    assert shuffled_deck(random.Random(5)) == shuffled_deck(random.Random(5))
    assert shuffled_deck(random.Random(5)) != shuffled_deck(random.Random(6))
    assert sorted(shuffled_deck(random.SystemRandom())) == list(FULL_DECK)


def test_p1_3_arranged_deck_deals_the_chosen_cards() -> None:
    deck = arrange_deck([parse_cards("AhKd"), None, parse_cards("2c2d")], parse_cards("QsJsTs9s8s"))
    assert sorted(deck) == list(FULL_DECK)
    assert (deck[0], deck[3]) == parse_cards("AhKd")
    assert (deck[2], deck[5]) == parse_cards("2c2d")
    assert [deck[slot] for slot in board_slots(3)] == list(parse_cards("QsJsTs9s8s"))
    assert cards_needed(3) == 14


def test_arrange_deck_refuses_a_card_dealt_twice() -> None:
    with pytest.raises(ValueError):
        arrange_deck([parse_cards("AhKd"), parse_cards("AhQd")])


@pytest.mark.parametrize(
    "deck",
    [list(range(13)), [0] * 52, [*range(51), 52], [*range(51), 5.0]],
)
def test_validated_deck_refuses_short_repeated_or_foreign_decks(deck: list[int]) -> None:
    with pytest.raises(ValueError):
        validated_deck(deck, 14)
