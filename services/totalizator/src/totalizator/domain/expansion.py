"""Reference settlement that expands every coupon into its lines and counts each line's matches right.

Exponential in the picks of a system coupon and slow by design. It exists to cross-check the counting
settlement (`totalizator verify --cross-check`, the property tests) and as the benchmark's naive baseline;
it shares the rules (allocation, payouts, flooring) and differs only in how lines are counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from totalizator.domain.counting import CouponGroup, check_mask, result_indices
from totalizator.domain.coupon import Coupon, picked_indices
from totalizator.domain.draw import Draw
from totalizator.domain.settlement import Settlement, settle_with


def expand_lines_by_right(results: Sequence[int | None], coupon: Coupon) -> tuple[int, ...]:
    """Enumerate the coupon's lines; index k of the answer = lines with exactly k valid matches right."""
    counts = [0] * (sum(result is not None for result in results) + 1)
    for line in product(*map(picked_indices, coupon.picks)):
        counts[sum(option == result for option, result in zip(line, results, strict=True))] += 1
    return tuple(counts)


def group_by_expansion(draw: Draw, coupons: Sequence[Coupon]) -> tuple[list[CouponGroup], range]:
    """Every coupon its own group, its lines counted by enumeration."""
    results = result_indices(draw)
    for coupon in coupons:
        for match_index, mask in enumerate(coupon.picks):
            check_mask(draw, match_index, mask)
    groups = [
        CouponGroup(coupon.currency, expand_lines_by_right(results, coupon), coupon.amount, 1) for coupon in coupons
    ]
    return groups, range(len(coupons))


def settle_by_expansion(draw: Draw, coupons: Iterable[Coupon]) -> Settlement:
    return settle_with(draw, coupons, group_by_expansion)
