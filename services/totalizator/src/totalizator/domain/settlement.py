"""Settling a draw: who is paid how much, in which currency, and where every dollar goes (T-3 to T-6).

Arithmetic. Pool arithmetic is exact: every amount in US dollars is a Fraction. A stake of `a` minor units
of currency C counts as a × rate_C / 10**exponent_C dollars at the rate fixed at announcement (T-2.3),
which is a terminating decimal. Category funds, jackpot parts and coefficients (fund / winning stake) are
exact rationals; a coefficient is a pure number, so it applies unchanged in every currency (T-6.1). A
coupon's payout in its own currency is amount × Σ_k (lines with k right) × coefficient_k / lines, computed
exactly and floored to the currency's minor unit once per coupon (T-6.3). The part floored away is the
rounding remainder, kept by the organizer and valued in dollars at the same fixed rate.

Because nothing is rounded except that final floor, the money invariant holds exactly (not merely to the
micro-dollar):
    paid + carried from the pool to the jackpot + rounding remainder + organizer share
        = pool + jackpot played + organizer top-up (T-6.2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from totalizator.domain.allocation import (
    ZERO,
    CategoryOutcome,
    Coefficient,
    JackpotPart,
    allocate,
)
from totalizator.domain.counting import CouponGroup, group_by_signature
from totalizator.domain.coupon import Coupon
from totalizator.domain.draw import MATCH_COUNT, Draw
from totalizator.domain.errors import CannotSettle
from totalizator.domain.prizes import MAX_VOID_MATCHES, ORGANIZER_SHARE


@dataclass(frozen=True, slots=True)
class Payout:
    """What a coupon is paid, in minor units of its own currency."""

    coupon_id: str
    currency: str
    amount: int


@dataclass(frozen=True, slots=True)
class CurrencyTotals:
    """One currency's part of a settlement, in minor units of that currency.

    `staked` and `paid` are whole minor units; `owed` (the payouts before flooring, T-6.3), `topup` (the
    organizer's T-6.2 top-up on this currency's winning bets) and `organizer_share` (T-1.1 on this currency's
    stakes) are exact. They are what the money transfers through the wallet are derived from (transfers.py).
    """

    currency: str
    staked: int
    paid: int
    owed: Fraction
    topup: Fraction
    organizer_share: Fraction


@dataclass(frozen=True, slots=True)
class JackpotOutcome:
    available_usd: Fraction  # this draw's jackpot: carried (T-4.1) + organizer top-up (T-4.4)
    parts: tuple[JackpotPart, ...]
    played_usd: Fraction
    from_pool_usd: Fraction  # added from this draw's pool: T-3.2 (70% of unwon funds) or T-3.3
    next_usd: Fraction  # available − played + from the pool: the next draw's jackpot before any top-up


@dataclass(frozen=True, slots=True)
class Settlement:
    """The complete result of a draw. USD amounts are exact; payouts are in each coupon's currency."""

    draw_id: str
    refunded: bool  # T-5.5 (or cancellation): every coupon gets its amount back
    void_matches: tuple[int, ...]  # match numbers
    coupons: int
    bets: int
    pool_usd: Fraction
    prize_fund_usd: Fraction
    organizer_share_usd: Fraction
    lines_by_right: tuple[int, ...]  # index k: bets with exactly k valid matches right
    stake_by_right_usd: tuple[Fraction, ...]
    categories: tuple[CategoryOutcome, ...]
    coefficients: tuple[Coefficient, ...]
    jackpot: JackpotOutcome
    organizer_topup_usd: Fraction  # T-6.2, paid from the organizer's funds outside the pool
    payouts: tuple[Payout, ...]  # coupons paid something, in coupon order
    paid_by_currency: dict[str, int] = field(hash=False)  # minor units
    paid_usd: Fraction
    rounding_remainder_usd: Fraction  # T-6.3
    currencies: tuple[CurrencyTotals, ...]  # per currency staked, in the draw's currency order

    @property
    def money_in_usd(self) -> Fraction:
        return self.pool_usd + self.jackpot.played_usd + self.organizer_topup_usd

    @property
    def money_out_usd(self) -> Fraction:
        """Equal to money_in_usd, exactly (T-6.3)."""
        return self.paid_usd + self.jackpot.from_pool_usd + self.rounding_remainder_usd + self.organizer_share_usd


Grouper = Callable[[Draw, Sequence[Coupon]], tuple[list[CouponGroup], Sequence[int]]]


def settle(draw: Draw, coupons: Iterable[Coupon]) -> Settlement:
    """Settle a draw, counting lines without expanding coupons (the service's settlement).

    Every valid match needs a result (CannotSettle otherwise); with more than two void matches the draw is
    not played and every coupon is refunded (T-5.5). Coupons must belong to the draw (validate_coupon).
    """
    return settle_with(draw, coupons, group_by_signature)


def refund_all(draw: Draw, coupons: Iterable[Coupon]) -> Settlement:
    """T-5.5 or a cancelled draw: every coupon is refunded in full and the jackpot carries over whole."""
    coupons = list(coupons)
    paid_by_currency: dict[str, int] = {}
    for coupon in coupons:
        paid_by_currency[coupon.currency] = paid_by_currency.get(coupon.currency, 0) + coupon.amount
    usd_per_minor = _usd_per_minor_unit(draw, paid_by_currency)
    pool = _to_usd(paid_by_currency, usd_per_minor)
    return Settlement(
        draw_id=draw.draw_id,
        refunded=True,
        void_matches=tuple(match.no for match in draw.void_matches),
        coupons=len(coupons),
        bets=sum(coupon.bets for coupon in coupons),
        pool_usd=pool,
        prize_fund_usd=ZERO,
        organizer_share_usd=ZERO,
        lines_by_right=(),
        stake_by_right_usd=(),
        categories=(),
        coefficients=(),
        jackpot=JackpotOutcome(draw.jackpot_usd, (), ZERO, ZERO, draw.jackpot_usd),
        organizer_topup_usd=ZERO,
        payouts=tuple(Payout(c.coupon_id, c.currency, c.amount) for c in coupons),
        paid_by_currency=paid_by_currency,
        paid_usd=pool,
        rounding_remainder_usd=ZERO,
        currencies=tuple(
            CurrencyTotals(currency, staked, staked, Fraction(staked), ZERO, ZERO)
            for currency, staked in _in_draw_order(draw, paid_by_currency)
        ),
    )


def settle_with(draw: Draw, coupons: Iterable[Coupon], grouper: Grouper) -> Settlement:
    """Settle, obtaining each coupon's lines per number right from `grouper` (counting or expansion)."""
    coupons = coupons if isinstance(coupons, Sequence) else list(coupons)
    void_matches = tuple(match.no for match in draw.void_matches)
    if len(void_matches) > MAX_VOID_MATCHES:
        return refund_all(draw, coupons)
    valid_matches = MATCH_COUNT - len(void_matches)
    groups, group_of = grouper(draw, coupons)
    usd_per_minor = _usd_per_minor_unit(draw, {group.currency for group in groups})
    pool, lines_by_right, stake_by_right = _tally(groups, usd_per_minor, valid_matches)
    allocation = allocate(len(void_matches), pool, draw.jackpot_usd, lines_by_right, stake_by_right)
    payouts, paid_by_currency, owed_by_currency, topup_by_currency = _pay(
        coupons,
        groups,
        group_of,
        allocation.paid_coefficients(valid_matches),
        allocation.pool_coefficients(valid_matches),
    )
    played = allocation.jackpot_played_usd
    paid_usd = _to_usd(paid_by_currency, usd_per_minor)
    return Settlement(
        draw_id=draw.draw_id,
        refunded=False,
        void_matches=void_matches,
        coupons=len(coupons),
        bets=sum(lines_by_right),
        pool_usd=pool,
        prize_fund_usd=allocation.prize_fund_usd,
        organizer_share_usd=pool * ORGANIZER_SHARE,
        lines_by_right=tuple(lines_by_right),
        stake_by_right_usd=tuple(stake_by_right),
        categories=allocation.categories,
        coefficients=allocation.coefficients,
        jackpot=JackpotOutcome(
            available_usd=draw.jackpot_usd,
            parts=allocation.jackpot_parts,
            played_usd=played,
            from_pool_usd=allocation.carried_from_pool_usd,
            next_usd=draw.jackpot_usd - played + allocation.carried_from_pool_usd,
        ),
        organizer_topup_usd=allocation.organizer_topup_usd,
        payouts=payouts,
        paid_by_currency=paid_by_currency,
        paid_usd=paid_usd,
        rounding_remainder_usd=_to_usd(owed_by_currency, usd_per_minor) - paid_usd,
        currencies=tuple(
            CurrencyTotals(
                currency,
                staked=staked,
                paid=paid_by_currency.get(currency, 0),
                owed=owed_by_currency.get(currency, ZERO),
                topup=topup_by_currency.get(currency, ZERO),
                organizer_share=staked * ORGANIZER_SHARE,
            )
            for currency, staked in _in_draw_order(draw, _staked_by_currency(groups))
        ),
    )


def _tally(
    groups: Sequence[CouponGroup], usd_per_minor: dict[str, Fraction], valid_matches: int
) -> tuple[Fraction, list[int], list[Fraction]]:
    """The pool, and per number right k the bets and the USD stake with exactly k right."""
    pool = ZERO
    lines_by_right = [0] * (valid_matches + 1)
    stake_by_right = [ZERO] * (valid_matches + 1)
    for group in groups:
        group_usd = group.amount * usd_per_minor[group.currency]
        pool += group_usd
        for right, lines in enumerate(group.lines_by_right):
            if lines:
                lines_by_right[right] += lines * group.coupons
                stake_by_right[right] += group_usd * lines / group.lines  # each line: an equal part (T-2.4)
    return pool, lines_by_right, stake_by_right


def _pay(
    coupons: Sequence[Coupon],
    groups: Sequence[CouponGroup],
    group_of: Sequence[int],
    paid_coefficients: Sequence[Fraction],
    pool_coefficients: Sequence[Fraction],
) -> tuple[tuple[Payout, ...], dict[str, int], dict[str, Fraction], dict[str, Fraction]]:
    """Each coupon's payout, floored (T-6.3); per currency the totals paid, owed exactly, and topped up (T-6.2)."""
    factors: list[tuple[int, int] | None] = []  # per group: payout per minor unit staked, as num / den
    owed_by_currency: dict[str, Fraction] = {}
    topup_by_currency: dict[str, Fraction] = {}
    for group in groups:
        winnings = sum(
            (lines * paid for lines, paid in zip(group.lines_by_right, paid_coefficients, strict=True)), ZERO
        )
        from_pool = sum(
            (lines * pool for lines, pool in zip(group.lines_by_right, pool_coefficients, strict=True)), ZERO
        )
        factor = winnings / group.lines
        factors.append((factor.numerator, factor.denominator) if factor else None)
        currency = group.currency
        owed_by_currency[currency] = owed_by_currency.get(currency, ZERO) + factor * group.amount
        topup = (winnings - from_pool) / group.lines * group.amount
        topup_by_currency[currency] = topup_by_currency.get(currency, ZERO) + topup

    payouts = []
    paid_by_currency = dict.fromkeys(owed_by_currency, 0)
    for coupon, group_number in zip(coupons, group_of, strict=True):
        factor_parts = factors[group_number]
        if factor_parts is not None:
            amount = coupon.amount * factor_parts[0] // factor_parts[1]
            if amount:
                payouts.append(Payout(coupon.coupon_id, coupon.currency, amount))
                paid_by_currency[coupon.currency] += amount
    paid = {c: amount for c, amount in paid_by_currency.items() if amount}
    return tuple(payouts), paid, owed_by_currency, topup_by_currency


def _staked_by_currency(groups: Iterable[CouponGroup]) -> dict[str, int]:
    staked: dict[str, int] = {}
    for group in groups:
        staked[group.currency] = staked.get(group.currency, 0) + group.amount
    return staked


def _in_draw_order(draw: Draw, by_currency: dict[str, int]) -> list[tuple[str, int]]:
    """The currencies staked, in the order the draw lists them (a stable order for reports and transfers)."""
    return [(terms.currency, by_currency[terms.currency]) for terms in draw.currencies if terms.currency in by_currency]


def _usd_per_minor_unit(draw: Draw, currencies: Iterable[str]) -> dict[str, Fraction]:
    """Dollar value of one minor unit of each currency; CannotSettle for one the draw does not accept."""
    rates = {}
    for currency in currencies:
        if not draw.accepts(currency):
            raise CannotSettle(f"draw {draw.draw_id} does not accept currency {currency!r}")
        rates[currency] = draw.terms(currency).usd_per_minor_unit
    return rates


def _to_usd(by_currency: dict[str, int] | dict[str, Fraction], usd_per_minor: dict[str, Fraction]) -> Fraction:
    return sum((amount * usd_per_minor[currency] for currency, amount in by_currency.items()), ZERO)
