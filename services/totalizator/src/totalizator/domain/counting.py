"""Counting a coupon's lines by number of matches right, without expanding the coupon into its lines.

A coupon with p_m results picked on match m holds Π p_m lines (T-2.4). On a valid match a line is right
only if it carries the result: of the coupon's p_m picks, `hit` (0 or 1) are right and p_m − hit wrong.
So the number of its lines with exactly k right is the coefficient of x^k in

    Π over valid matches of ((p_m − hit_m) + hit_m·x)  ×  Π over void matches of p_m

(a void match multiplies every count by its picks and is never "right", T-5.4).

That count only depends on the coupon's per-match (picks, hit) signature, so coupons are first grouped by
signature and currency with plain integer work, and each distinct signature is expanded into its
polynomial once. A million coupons fall into a few thousand groups.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import getitem

from totalizator.domain.coupon import Coupon
from totalizator.domain.draw import Draw
from totalizator.domain.errors import CannotSettle


@dataclass(frozen=True, slots=True)
class CouponGroup:
    """Coupons settled alike: same currency, same number of lines per number right."""

    currency: str
    lines_by_right: tuple[int, ...]  # of ONE coupon of the group; index k = lines with exactly k right
    amount: int  # total of the group's coupons, in minor units of `currency`
    coupons: int

    @property
    def lines(self) -> int:
        """Lines (bets) of one coupon of the group."""
        return sum(self.lines_by_right)


def result_indices(draw: Draw) -> tuple[int | None, ...]:
    """Per match, the index of its result option, or None for a void match (whose result does not count)."""
    indices: list[int | None] = []
    for match in draw.matches:
        if match.is_void(draw.close_at):
            indices.append(None)
        elif match.result is None:
            raise CannotSettle(f"draw {draw.draw_id}: match {match.no} is neither void nor has a result")
        else:
            indices.append(match.option_index(match.result))
    return tuple(indices)


def check_mask(draw: Draw, match_index: int, mask: int) -> None:
    """A pick mask names only options the match offers."""
    if not 0 < mask < 1 << len(draw.matches[match_index].options):
        raise CannotSettle(f"match {match_index + 1}: pick mask {mask:#b} names options it does not offer")


def right_count_distribution(picks_and_hits: Iterable[tuple[int, int]], void_picks: int) -> tuple[int, ...]:
    """Coefficients of Π ((picks − hit) + hit·x) × void_picks: index k = lines with exactly k right."""
    counts = [void_picks]
    for picks, hit in picks_and_hits:
        shifted = [0, *counts] if hit else [0] * (len(counts) + 1)
        counts = [c * (picks - hit) + s for c, s in zip([*counts, 0], shifted, strict=True)]
    return tuple(counts)


class _MatchCodes(dict[int, int]):
    """One match's pick mask → picks·2 + hit, computed once per distinct mask (a draw sees few)."""

    def __init__(self, draw: Draw, match_index: int, result_index: int | None) -> None:
        super().__init__()
        self._draw = draw
        self._match_index = match_index
        self._result_index = result_index

    def __missing__(self, mask: int) -> int:
        check_mask(self._draw, self._match_index, mask)
        hit = 0 if self._result_index is None else mask >> self._result_index & 1
        code = self[mask] = mask.bit_count() << 1 | hit
        return code


class _Distributions:
    """Lines per number right for a per-match signature, computed once per distinct multiset.

    The order of the matches does not matter to the product, so a signature is reduced to the sorted codes
    of its valid matches and the product of its void matches' picks before the polynomial is expanded.
    """

    def __init__(self, result_index: Sequence[int | None]) -> None:
        self._void = [result is None for result in result_index]
        self._known: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}

    def of(self, codes: Sequence[int]) -> tuple[int, ...]:
        void_picks = 1
        valid_codes = []
        for code, void in zip(codes, self._void, strict=True):
            if void:
                void_picks *= code >> 1
            else:
                valid_codes.append(code)
        canonical = (void_picks, tuple(sorted(valid_codes)))
        if canonical not in self._known:
            self._known[canonical] = right_count_distribution(
                ((code >> 1, code & 1) for code in canonical[1]), void_picks
            )
        return self._known[canonical]


def group_by_signature(draw: Draw, coupons: Sequence[Coupon]) -> tuple[list[CouponGroup], list[int]]:
    """Group coupons by currency and lines per number right; also return each coupon's group index."""
    results = result_indices(draw)
    tables = [_MatchCodes(draw, m, result) for m, result in enumerate(results)]
    currency_index = {terms.currency: i for i, terms in enumerate(draw.currencies)}
    signature_index: dict[tuple[int, ...], int] = {}
    amounts: list[int] = []
    signature_of: list[int] = []
    # The hot loop: one dict lookup per match (a C-level map), one per coupon, an integer addition.
    try:
        for coupon in coupons:
            key = (currency_index[coupon.currency], *map(getitem, tables, coupon.picks))
            signature = signature_index.get(key)
            if signature is None:
                signature = signature_index[key] = len(amounts)
                amounts.append(0)
            amounts[signature] += coupon.amount
            signature_of.append(signature)
    except KeyError as exc:
        raise CannotSettle(f"draw {draw.draw_id} does not accept currency {exc.args[0]!r}") from None

    # Many signatures share a distribution (a single line with 3 right on matches 1, 2, 3 or on 4, 5, 6):
    # merge them so the exact-fraction work downstream runs once per currency and distribution.
    coupon_counts = Counter(signature_of)
    distributions = _Distributions(results)
    amount_by_group: defaultdict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
    coupons_by_group: defaultdict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
    group_of_signature = []  # signature_index numbers signatures in insertion order, as items() yields them
    for key, signature in signature_index.items():
        group = (key[0], distributions.of(key[1:]))
        amount_by_group[group] += amounts[signature]
        coupons_by_group[group] += coupon_counts[signature]
        group_of_signature.append(group)

    group_number = {group: number for number, group in enumerate(amount_by_group)}
    groups = [
        CouponGroup(draw.currencies[group[0]].currency, group[1], amount, coupons_by_group[group])
        for group, amount in amount_by_group.items()
    ]
    number_of_signature = [group_number[group] for group in group_of_signature]
    return groups, list(map(number_of_signature.__getitem__, signature_of))
