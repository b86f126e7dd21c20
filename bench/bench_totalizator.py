"""Settlement benchmark of the exact-score totalizator: one million coupons, counting vs line expansion.

Builds a draw with the standard 28 results per match and a realistic mix of coupons (mostly single lines,
systems of up to 108 lines; five currencies; popular scores picked more often), then times

- `settle`: the service's settlement, counting lines per number right without expanding coupons;
- `settle_by_expansion` on a subset: the naive settlement that enumerates every line of every coupon;
- optionally (--files) writing and reading the published bet file (T-8.3), as the verifier does.

Goal: 1,000,000 coupons settled in under 10 s on a 2-core machine.

    uv run python bench/bench_totalizator.py [--coupons 1000000] [--naive-subset 20000] [--files]
"""

from __future__ import annotations

import argparse
import io
import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import TypeVar

from totalizator.domain import (
    Coupon,
    CurrencyTerms,
    Draw,
    Match,
    option_for_score,
    settle,
    settle_by_expansion,
    standard_options,
)
from totalizator.files import read_bets, write_bets

T = TypeVar("T")
CLOSE_AT = datetime(2030, 6, 10, 20, 0, tzinfo=UTC)
# (currency, minimum stake in minor units, USD rate, share of coupons)
CURRENCIES = [
    ("USD", 10, "1", 40),
    ("EUR", 10, "1.0843", 25),
    ("GBP", 10, "1.2712", 10),
    ("RUB", 1000, "0.010870", 20),
    ("JPY", 15, "0.006700", 5),
]
STAKE_MULTIPLIERS = [(1, 30), (2, 20), (5, 20), (10, 15), (20, 8), (50, 5), (100, 2)]
# Share of coupons by shape: the number of matches with several picks and how many picks each.
SHAPES = [((), 70), ((2,), 10), ((2, 2), 7), ((3,), 4), ((2, 2, 2), 3), ((3, 3), 2), ((2, 2, 2, 2), 2),
          ((3, 3, 2), 1), ((4, 3, 2, 2), 0.5), ((3, 3, 3, 2, 2), 0.5)]  # fmt: skip


def score_weights(options: tuple[str, ...]) -> list[float]:
    """How often each option is the result (and is picked): independent Poisson goals, 1.5 home, 1.1 away.

    Floats here only weight random choices; no money is involved.
    """
    weights = dict.fromkeys(options, 0.0)
    for home in range(12):
        for away in range(12):
            probability = math.exp(-2.6) * 1.5**home * 1.1**away / (math.factorial(home) * math.factorial(away))
            weights[option_for_score(options, home, away)] += probability
    return [weights[option] for option in options]


def build_draw(rng: random.Random) -> Draw:
    options = standard_options()
    weights = score_weights(options)
    matches = tuple(
        Match(no, f"Home {no}", f"Away {no}", CLOSE_AT + timedelta(hours=no), options,
              result=rng.choices(options, weights)[0])
        for no in range(1, 9)
    )  # fmt: skip
    currencies = tuple(CurrencyTerms(code, minimum, Fraction(rate)) for code, minimum, rate, _ in CURRENCIES)
    return Draw("bench", CLOSE_AT, matches, currencies, jackpot_carried_usd=Fraction(250_000))


def weighted(rng: random.Random, table: Sequence[tuple[T, float]], k: int) -> list[T]:
    values, weights = zip(*table, strict=True)
    return rng.choices(values, weights, k=k)


def build_coupons(draw: Draw, rng: random.Random, count: int) -> list[Coupon]:
    options = draw.matches[0].options
    cumulative = list(itertools.accumulate(score_weights(options)))
    single_bits = [1 << i for i in range(len(options))]
    picks_by_match = [rng.choices(single_bits, cum_weights=cumulative, k=count) for _ in draw.matches]
    shapes = weighted(rng, SHAPES, count)
    currencies = weighted(
        rng, [(terms, share) for terms, (*_, share) in zip(draw.currencies, CURRENCIES, strict=True)], count
    )
    multipliers = weighted(rng, STAKE_MULTIPLIERS, count)
    coupons = []
    for n, (shape, terms, multiplier) in enumerate(zip(shapes, currencies, multipliers, strict=True)):
        picks = [column[n] for column in picks_by_match]
        if shape:  # a system: several picks on some matches
            for match_index, picked in zip(rng.sample(range(len(picks)), len(shape)), shape, strict=True):
                mask = 0
                while mask.bit_count() < picked:
                    mask |= rng.choices(single_bits, cum_weights=cumulative)[0]
                picks[match_index] = mask
        amount = terms.min_stake * math.prod(shape) * multiplier
        coupons.append(Coupon(f"c{n:07d}", terms.currency, amount, tuple(picks)))
    return coupons


def timed(action: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coupons", type=int, default=1_000_000)
    parser.add_argument("--naive-subset", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2010)
    parser.add_argument("--files", action="store_true", help="also time writing and reading the bet file")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    draw = build_draw(rng)
    coupons, build_time = timed(lambda: build_coupons(draw, rng, args.coupons))
    bets = sum(coupon.bets for coupon in coupons)
    singles = sum(coupon.bets == 1 for coupon in coupons)
    print(f"draw: 8 matches x {len(draw.matches[0].options)} results, results "
          f"{' '.join(m.result or '-' for m in draw.matches)}")  # fmt: skip
    print(f"coupons: {len(coupons):,} ({singles / len(coupons):.0%} single-line), bets (lines): {bets:,}, "
          f"currencies: {', '.join(c.currency for c in draw.currencies)}; built in {build_time:.1f} s (not timed)")  # fmt: skip

    settlement, settle_time = timed(lambda: settle(draw, coupons))
    assert settlement.money_in_usd == settlement.money_out_usd

    subset = coupons[: args.naive_subset]
    subset_counting, subset_counting_time = timed(lambda: settle(draw, subset))
    subset_naive, naive_time = timed(lambda: settle_by_expansion(draw, subset))
    assert subset_naive == subset_counting, "counting and expansion disagree"
    subset_bets = sum(coupon.bets for coupon in subset)

    rows = [
        ("settle (counting), all coupons", len(coupons), bets, settle_time),
        ("settle (counting), subset", len(subset), subset_bets, subset_counting_time),
        ("settle_by_expansion (naive), subset", len(subset), subset_bets, naive_time),
        ("naive extrapolated to all coupons", len(coupons), bets, naive_time * len(coupons) / len(subset)),
    ]
    if args.files:
        buffer = io.StringIO()
        _, write_time = timed(lambda: write_bets(draw, coupons, buffer))
        buffer.seek(0)
        read, read_time = timed(lambda: read_bets(draw, buffer))
        assert read == coupons
        rows += [("write bet file (CSV)", len(coupons), bets, write_time),
                 ("read bet file (CSV, checked)", len(coupons), bets, read_time)]  # fmt: skip

    print()
    print(f"{'step':<40}{'coupons':>12}{'bets':>14}{'seconds':>10}{'µs/coupon':>11}")
    for step, count, lines, seconds in rows:
        print(f"{step:<40}{count:>12,}{lines:>14,}{seconds:>10.2f}{seconds / count * 1e6:>11.2f}")
    print()
    ratio = (naive_time / len(subset)) / (settle_time / len(coupons))
    print(f"naive expansion / counting, per coupon: {ratio:,.0f}x "
          f"(same subset: {naive_time / subset_counting_time:,.0f}x)")  # fmt: skip
    if len(coupons) < 1_000_000:
        verdict = f"not measured: run with --coupons 1000000 ({settle_time:.2f} s for {len(coupons):,})"
    else:
        verdict = f"{'MET' if settle_time < 10 else 'MISSED'} ({settle_time:.2f} s for {len(coupons):,})"
    print(f"goal, 1,000,000 coupons settled in < 10 s: {verdict}")
    print(f"winning coupons: {len(settlement.payouts):,}; pool USD {float(settlement.pool_usd):,.2f}; "
          f"jackpot next USD {float(settlement.jackpot.next_usd):,.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
