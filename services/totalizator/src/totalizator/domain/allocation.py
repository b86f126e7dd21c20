"""Sharing out the pool and the jackpot once the stake on each number of matches right is known.

This is the rule core of settlement (T-3, T-4, T-5.2–T-5.4, T-6.1, T-6.2), independent of how the totals
per number right were obtained (by counting or by expanding lines) and of currencies: it works on exact
US-dollar rationals only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from totalizator.domain.prizes import (
    CATEGORIES,
    JACKPOT_PARTS,
    MIN_COEFFICIENT,
    MIN_RIGHT_TO_WIN,
    PRIZE_FUND_SHARE,
    UNWON_TO_TOP_CATEGORY,
)

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class CategoryOutcome:
    """A prize category (T-3): its fund this draw and the bets sharing it (those with ≥ min_right right)."""

    category: int
    min_right: int
    share_of_pool: Fraction
    fund_usd: Fraction  # 0 when unwon; the top won category includes the T-3.2 addition
    winning_stake_usd: Fraction
    bets: int

    @property
    def won(self) -> bool:
        return self.bets > 0


@dataclass(frozen=True, slots=True)
class JackpotPart:
    """A part of the jackpot (T-4.2, T-5.2), played among the bets with ≥ min_right right, if any."""

    min_right: int
    share_of_jackpot: Fraction
    fund_usd: Fraction  # 0 when no bet qualifies: the part carries over
    winning_stake_usd: Fraction
    bets: int


@dataclass(frozen=True, slots=True)
class Coefficient:
    """Payout per unit of stake for a bet with `right` matches right (T-6.1), before and after T-6.2."""

    right: int
    pool: Fraction  # sum of fund / winning stake over the categories and jackpot parts the bet takes part in
    paid: Fraction  # at least MIN_COEFFICIENT; the difference is the organizer's top-up


@dataclass(frozen=True, slots=True)
class Allocation:
    """Where the prize fund and the jackpot go, and what each winning number right is paid per unit staked."""

    prize_fund_usd: Fraction
    categories: tuple[CategoryOutcome, ...]
    jackpot_parts: tuple[JackpotPart, ...]
    carried_from_pool_usd: Fraction  # T-3.2 70% of unwon funds, or T-3.3 the whole prize fund
    coefficients: tuple[Coefficient, ...]  # for each winning number right that some bet has
    organizer_topup_usd: Fraction  # T-6.2

    @property
    def jackpot_played_usd(self) -> Fraction:
        return sum((part.fund_usd for part in self.jackpot_parts), ZERO)

    def paid_coefficients(self, valid_matches: int) -> tuple[Fraction, ...]:
        """Index k: the coefficient paid to a bet with k right (0 for a losing k)."""
        paid = [ZERO] * (valid_matches + 1)
        for coefficient in self.coefficients:
            paid[coefficient.right] = coefficient.paid
        return tuple(paid)

    def pool_coefficients(self, valid_matches: int) -> tuple[Fraction, ...]:
        """Index k: the part of the paid coefficient that comes from the pool and the jackpot (the rest is
        the organizer's T-6.2 top-up)."""
        pool = [ZERO] * (valid_matches + 1)
        for coefficient in self.coefficients:
            pool[coefficient.right] = coefficient.pool
        return tuple(pool)


def allocate(
    void_count: int,
    pool_usd: Fraction,
    jackpot_usd: Fraction,
    lines_by_right: Sequence[int],
    stake_by_right: Sequence[Fraction],
) -> Allocation:
    """Share out pool and jackpot given, per k = 0..valid matches, the bets and the USD stake with k right."""
    # Index k: the bets (stake) with k or more right; categories and jackpot parts are cumulative (T-3).
    lines_at_least = [sum(lines_by_right[k:]) for k in range(len(lines_by_right))]
    stake_at_least = [sum(stake_by_right[k:], ZERO) for k in range(len(stake_by_right))]
    shares = CATEGORIES[void_count]
    prize_fund = pool_usd * PRIZE_FUND_SHARE

    won = [lines_at_least[share.min_right] > 0 for share in shares]
    if any(won):
        unwon_fund = sum((share.share * pool_usd for share, w in zip(shares, won, strict=True) if not w), ZERO)
        funds = [share.share * pool_usd if w else ZERO for share, w in zip(shares, won, strict=True)]
        funds[won.index(True)] += unwon_fund * UNWON_TO_TOP_CATEGORY  # T-3.2: the won category most right
        carried = unwon_fund * (1 - UNWON_TO_TOP_CATEGORY)
    else:  # T-3.3: nobody has 2 right, the whole prize fund goes to the next jackpot
        funds = [ZERO] * len(shares)
        carried = prize_fund

    categories = tuple(
        CategoryOutcome(
            category=number,
            min_right=share.min_right,
            share_of_pool=share.share,
            fund_usd=fund,
            winning_stake_usd=stake_at_least[share.min_right],
            bets=lines_at_least[share.min_right],
        )
        for number, (share, fund) in enumerate(zip(shares, funds, strict=True), start=1)
    )
    parts = tuple(
        JackpotPart(
            min_right=part.min_right,
            share_of_jackpot=part.share,
            fund_usd=jackpot_usd * part.share if lines_at_least[part.min_right] else ZERO,  # T-4.3
            winning_stake_usd=stake_at_least[part.min_right],
            bets=lines_at_least[part.min_right],
        )
        for part in JACKPOT_PARTS[void_count]
    )

    # What a bet takes part in: the categories and jackpot parts whose threshold it reaches (T-6.1).
    shared: list[CategoryOutcome | JackpotPart] = [*categories, *parts]
    funded = [taken for taken in shared if taken.fund_usd]
    coefficients = []
    topup = ZERO
    for right in range(MIN_RIGHT_TO_WIN, len(lines_by_right)):
        if not lines_by_right[right]:
            continue
        pool_coefficient = sum(
            (taken.fund_usd / taken.winning_stake_usd for taken in funded if taken.min_right <= right),
            ZERO,
        )
        paid = max(pool_coefficient, MIN_COEFFICIENT)  # T-6.2
        topup += stake_by_right[right] * (paid - pool_coefficient)
        coefficients.append(Coefficient(right=right, pool=pool_coefficient, paid=paid))

    return Allocation(
        prize_fund_usd=prize_fund,
        categories=categories,
        jackpot_parts=parts,
        carried_from_pool_usd=carried,
        coefficients=tuple(coefficients),
        organizer_topup_usd=topup,
    )
