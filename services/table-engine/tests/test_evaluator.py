"""The hand evaluator: exact counts over every 5-card hand, agreement with pokerkit and treys on 7 cards.

The full enumeration of the 133,784,560 seven-card hands by category is too slow for the unit suite; it runs in
``bench/bench_evaluator.py --full``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, starmap

import pytest
from pokerkit import StandardHighHand
from table_engine.domain import HandCategory, card_text, cards_text, category, category_name, evaluate, parse_cards
from table_engine.domain.evaluator import DISTINCT_HANDS, evaluate5, rank_to_strength

FIVE_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}


def test_p1_1_every_five_card_hand_is_counted_in_its_category() -> None:
    """All 2,598,960 five-card hands, by category, against the known counts."""
    by_rank = Counter(starmap(evaluate5, combinations(range(52), 5)))
    by_category: Counter[HandCategory] = Counter()
    for rank, count in by_rank.items():
        by_category[category(rank_to_strength(rank))] += count
    assert by_category == FIVE_CARD_COUNTS
    assert sum(by_category.values()) == 2_598_960
    assert len(by_rank) == DISTINCT_HANDS


def test_p1_1_seven_card_ranking_agrees_with_pokerkit() -> None:
    rng = random.Random(1)
    for _ in range(2_000):
        cards = rng.sample(range(52), 9)
        board, first, second = cards[:5], cards[5:7], cards[7:]
        ours = evaluate(first + board), evaluate(second + board)
        theirs = [StandardHighHand.from_game(cards_text(hole), cards_text(board)) for hole in (first, second)]
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
        assert category_name(ours[0]) == theirs[0].entry.label.value.lower()


def test_p1_1_seven_card_strength_matches_treys_exactly() -> None:
    treys = pytest.importorskip("treys")  # a bench dependency
    evaluator = treys.Evaluator()
    rng = random.Random(2)
    for _ in range(5_000):
        cards = rng.sample(range(52), 7)
        theirs = evaluator.evaluate(
            [treys.Card.new(card_text(c)) for c in cards[:2]], [treys.Card.new(card_text(c)) for c in cards[2:]]
        )
        assert evaluate(cards) == rank_to_strength(theirs)  # both number the 7,462 hand values alike


def test_p1_1_six_cards_take_the_best_five() -> None:
    rng = random.Random(3)
    for _ in range(2_000):
        cards = rng.sample(range(52), 6)
        assert evaluate(cards) == max(evaluate(list(five)) for five in combinations(cards, 5))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("AsKsQsJsTs", "KsQsJsTs9s"),  # royal flush over king-high straight flush
        ("5s4s3s2sAs", "AhAdAcAs2c"),  # steel wheel over four aces
        ("6c5d4h3s2c", "5c4d3h2sAc"),  # six-high straight over the wheel
        ("AcAdKhKsQc", "AcAdKhKsJc"),  # kicker
        ("2c2d3h4s5c", "AcKdQhJs9c"),  # a pair over ace-high
    ],
)
def test_p1_1_known_orderings(better: str, worse: str) -> None:
    assert evaluate(parse_cards(better)) > evaluate(parse_cards(worse))


def test_p1_1_strength_bounds_and_categories() -> None:
    assert evaluate(parse_cards("AsKsQsJsTs")) == DISTINCT_HANDS
    assert evaluate(parse_cards("7c5d4h3s2c")) == 1
    assert category(DISTINCT_HANDS) is HandCategory.STRAIGHT_FLUSH
    assert category(1) is HandCategory.HIGH_CARD
    assert HandCategory.THREE_OF_A_KIND.label == "three of a kind"


@pytest.mark.parametrize("cards", ["AsKsQsJs", "AsKsQsJsTs9s8s7s", "AsAsKsQsJs"])
def test_p1_1_evaluate_refuses_anything_but_five_to_seven_distinct_cards(cards: str) -> None:
    with pytest.raises(ValueError):
        evaluate(parse_cards(cards))


def test_p1_1_category_refuses_a_strength_out_of_range() -> None:
    with pytest.raises(ValueError):
        category(DISTINCT_HANDS + 1)
