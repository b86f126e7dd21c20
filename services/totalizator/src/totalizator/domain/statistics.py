"""Live bet statistics while a draw is open (T-2.6): per match and offered result, bets and amount.

Kept incrementally: accepting a coupon adds its share to each option it picks. A coupon with L bets and
p picks on a match has L / p bets on each of those picks, carrying amount / p of its stake.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from totalizator.domain.coupon import Coupon, picked_indices
from totalizator.domain.draw import Draw


@dataclass(frozen=True, slots=True)
class OptionStatistics:
    match_no: int
    option: str
    bets: int
    amount_usd: Fraction


@dataclass(frozen=True, slots=True)
class StatisticsSnapshot:
    """Everything LiveStatistics has counted, to store it and resume counting later."""

    coupons: int
    bets: int
    pool_usd: Fraction
    bets_by_option: tuple[tuple[int, ...], ...]  # per match, per option in the match's option order
    amount_by_option: tuple[tuple[Fraction, ...], ...]


class LiveStatistics:
    """Bets and stakes so far, per match and option, plus totals; amounts in exact US dollars (T-2.3)."""

    def __init__(self, draw: Draw) -> None:
        self._draw = draw
        self._bets = [[0] * len(match.options) for match in draw.matches]
        self._amounts = [[Fraction(0)] * len(match.options) for match in draw.matches]
        self.coupons = 0
        self.bets = 0
        self.pool_usd = Fraction(0)

    @classmethod
    def resume(cls, draw: Draw, snapshot: StatisticsSnapshot) -> LiveStatistics:
        """Statistics of `draw` that continue from a snapshot taken earlier."""
        shape = [len(match.options) for match in draw.matches]
        if [len(row) for row in snapshot.bets_by_option] != shape or [
            len(row) for row in snapshot.amount_by_option
        ] != shape:
            raise ValueError(f"the snapshot does not fit the options of draw {draw.draw_id}")
        statistics = cls(draw)
        statistics._bets = [list(row) for row in snapshot.bets_by_option]
        statistics._amounts = [list(row) for row in snapshot.amount_by_option]
        statistics.coupons = snapshot.coupons
        statistics.bets = snapshot.bets
        statistics.pool_usd = snapshot.pool_usd
        return statistics

    def snapshot(self) -> StatisticsSnapshot:
        return StatisticsSnapshot(
            coupons=self.coupons,
            bets=self.bets,
            pool_usd=self.pool_usd,
            bets_by_option=tuple(tuple(row) for row in self._bets),
            amount_by_option=tuple(tuple(row) for row in self._amounts),
        )

    def add(self, coupon: Coupon) -> None:
        """Count an accepted coupon (one validated against this draw)."""
        usd = self._draw.terms(coupon.currency).to_usd(coupon.amount)
        bets = coupon.bets
        for bets_row, amounts_row, mask in zip(self._bets, self._amounts, coupon.picks, strict=True):
            picks = mask.bit_count()
            for option in picked_indices(mask):
                bets_row[option] += bets // picks
                amounts_row[option] += usd / picks
        self.coupons += 1
        self.bets += bets
        self.pool_usd += usd

    def option(self, match_no: int, option: str) -> OptionStatistics:
        match = self._draw.match(match_no)
        index = match.option_index(option)
        return OptionStatistics(match_no, option, self._bets[match_no - 1][index], self._amounts[match_no - 1][index])

    def match(self, match_no: int) -> tuple[OptionStatistics, ...]:
        """Every option of a match, in the draw's option order."""
        return tuple(self.option(match_no, option) for option in self._draw.match(match_no).options)
