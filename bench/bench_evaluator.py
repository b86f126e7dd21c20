"""7-card hand evaluations per second: the table engine's evaluator against phevaluator, eval7, treys, pokerkit.

Every evaluator ranks the same random 7-card hands, converted to its own card type before the clock starts.
Run: ``uv run python bench/bench_evaluator.py [--hands N] [--full]``.

``--full`` also enumerates all 133,784,560 seven-card hands and checks the count of every category (about a
minute or two on one core).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, starmap

import eval7
import treys
from phevaluator import evaluate_cards
from pokerkit import Card, StandardHighHand
from table_engine.domain import HandCategory, card_text, category, evaluate
from table_engine.domain.evaluator import evaluate7, rank_to_strength

SEVEN_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.ONE_PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}


def rate(run: Callable[[], object], hands: int) -> float:
    start = time.perf_counter()
    run()
    return hands / (time.perf_counter() - start)


def contenders(hands: Sequence[tuple[int, ...]]) -> list[tuple[str, int, Callable[[], object]]]:
    """(name, hands evaluated, the loop) for each evaluator, on its own card representation."""
    texts = [[card_text(card) for card in hand] for hand in hands]
    eval7_hands = [[eval7.Card(text) for text in hand] for hand in texts]
    treys_hands = [([treys.Card.new(t) for t in hand[:2]], [treys.Card.new(t) for t in hand[2:]]) for hand in texts]
    treys_evaluator = treys.Evaluator()
    pokerkit_count = max(1, len(hands) // 20)  # pokerkit is slow: a twentieth of the hands is enough
    pokerkit_hands = [(Card.parse("".join(hand[:2])), Card.parse("".join(hand[2:]))) for hand in texts]
    pokerkit_hands = [(tuple(hole), tuple(board)) for hole, board in pokerkit_hands[:pokerkit_count]]
    return [
        ("table-engine evaluate7 (engine hot path)", len(hands), lambda: [evaluate7(*hand) for hand in hands]),
        ("table-engine evaluate (checked API)", len(hands), lambda: [evaluate(hand) for hand in hands]),
        ("phevaluator evaluate_cards", len(hands), lambda: [evaluate_cards(*hand) for hand in hands]),
        ("eval7 evaluate", len(hands), lambda: [eval7.evaluate(hand) for hand in eval7_hands]),
        ("treys Evaluator.evaluate", len(hands), lambda: [treys_evaluator.evaluate(h, b) for h, b in treys_hands]),
        (
            "pokerkit StandardHighHand.from_game",
            pokerkit_count,
            lambda: [StandardHighHand.from_game(h, b) for h, b in pokerkit_hands],
        ),
    ]


def full_enumeration() -> None:
    start = time.perf_counter()
    by_rank = Counter(starmap(evaluate7, combinations(range(52), 7)))
    by_category: Counter[HandCategory] = Counter()
    for rank, count in by_rank.items():
        by_category[category(rank_to_strength(rank))] += count
    elapsed = time.perf_counter() - start
    print(f"\nAll {sum(by_category.values()):,} seven-card hands in {elapsed:.0f} s:")
    for name, count in sorted(by_category.items(), reverse=True):
        print(f"  {name.label:<16} {count:>12,}  expected {SEVEN_CARD_COUNTS[name]:>12,}")
    assert by_category == SEVEN_CARD_COUNTS, "category counts differ from the known enumeration"
    assert sum(by_category.values()) == 133_784_560
    print("  every count matches")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--full", action="store_true", help="also enumerate all 133,784,560 seven-card hands")
    args = parser.parse_args()
    rng = random.Random(2024)
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(args.hands)]
    print(f"7-card evaluations per second, {args.hands:,} random hands (pokerkit: {args.hands // 20:,})\n")
    print(f"| {'evaluator':<42} | {'evaluations/s':>14} |")
    print(f"|{'-' * 44}|{'-' * 16}|")
    for name, count, run in contenders(hands):
        print(f"| {name:<42} | {rate(run, count):>14,.0f} |")
    if args.full:
        full_enumeration()


if __name__ == "__main__":
    main()
