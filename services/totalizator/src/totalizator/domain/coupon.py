"""Coupons (T-2.4) and the pure checks a coupon must pass to be accepted (T-1.4, T-2.1, T-2.2, T-2.5).

A coupon stores its picks as one bitmask per match over that match's option list (bit i set = option i
picked): compact for a million coupons, and the number of picks and whether the result is among them are
single integer operations at settlement.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from totalizator.domain.currency import format_minor
from totalizator.domain.draw import MATCH_COUNT, Draw, Match
from totalizator.domain.errors import CouponRejected, RejectionCode

ADULT_AGE = 18  # T-1.4


@dataclass(frozen=True, slots=True)
class Coupon:
    """An accepted coupon: `amount` minor units of `currency` split equally over its bets (T-2.4)."""

    coupon_id: str
    currency: str
    amount: int
    picks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.picks) != MATCH_COUNT or not all(mask > 0 for mask in self.picks):
            raise ValueError(f"coupon {self.coupon_id}: one non-empty pick mask per match, got {self.picks}")
        if self.amount <= 0:
            raise ValueError(f"coupon {self.coupon_id}: the amount must be positive, got {self.amount}")

    @property
    def bets(self) -> int:
        return bet_count(self.picks)


def bet_count(picks: Iterable[int]) -> int:
    """T-2.4: a coupon holds the product over matches of the number of results picked."""
    return math.prod(mask.bit_count() for mask in picks)


def encode_picks(draw: Draw, picks: Sequence[Iterable[str]]) -> tuple[int, ...]:
    """Option labels picked per match (match 1 first) as bitmasks; CouponRejected if they do not fit."""
    if len(picks) != MATCH_COUNT:
        raise CouponRejected(RejectionCode.WRONG_MATCH_COUNT, f"a coupon picks results for all {MATCH_COUNT} matches")
    return tuple(encode_match_picks(match, labels) for match, labels in zip(draw.matches, picks, strict=True))


def encode_match_picks(match: Match, labels: Iterable[str]) -> int:
    """The bitmask of the options picked on one match; CouponRejected for none, unknown or repeated."""
    mask = 0
    for label in labels:
        try:
            bit = 1 << match.option_index(label)
        except KeyError:
            raise CouponRejected(
                RejectionCode.OPTION_NOT_OFFERED, f"match {match.no} does not offer {label!r}"
            ) from None
        if mask & bit:
            raise CouponRejected(RejectionCode.DUPLICATE_OPTION, f"match {match.no}: {label!r} is picked twice")
        mask |= bit
    if not mask:
        raise CouponRejected(RejectionCode.NO_OPTION_PICKED, f"match {match.no}: pick at least one result")
    return mask


def picked_indices(mask: int) -> list[int]:
    """Option indices set in a pick mask, in option order."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def decode_picks(draw: Draw, picks: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """The option labels behind a coupon's pick masks, per match, in each match's option order."""
    return tuple(decode_match_picks(match, mask) for match, mask in zip(draw.matches, picks, strict=True))


def decode_match_picks(match: Match, mask: int) -> tuple[str, ...]:
    return tuple(match.options[i] for i in picked_indices(mask))


def is_adult(birth_date: date, today: date) -> bool:
    """T-1.4: 18 years old or more on `today` (someone born on 29 February comes of age on 1 March)."""
    years = today.year - birth_date.year - ((today.month, today.day) < (birth_date.month, birth_date.day))
    return years >= ADULT_AGE


def check_minimum_stake(draw: Draw, currency: str, amount: int, bets: int) -> None:
    """T-2.4: a coupon's amount is at least the currency's minimum stake times its number of bets."""
    terms = draw.terms(currency)
    minimum = terms.min_stake * bets
    if amount < minimum:
        raise CouponRejected(
            RejectionCode.BELOW_MINIMUM_STAKE,
            f"{bets} bet(s) need at least {format_minor(minimum, terms.exponent)} {currency}, "
            f"got {format_minor(amount, terms.exponent)}",
        )


def validate_coupon(
    draw: Draw,
    *,
    coupon_id: str,
    currency: str,
    amount: int,
    picks: Sequence[Iterable[str]],
    birth_date: date,
    now: datetime,
) -> Coupon:
    """Accept a coupon or raise CouponRejected with the first rule it breaks.

    `amount` is in minor units of `currency`; `picks` lists the option labels picked for each match;
    `birth_date` is the player's and `now` the injected clock's time (its own timezone decides the day).
    """
    if now >= draw.close_at:  # T-2.5: accepted strictly before the announced closing time
        raise CouponRejected(
            RejectionCode.BETTING_CLOSED, f"draw {draw.draw_id} closed for bets at {draw.close_at.isoformat()}"
        )
    if not draw.is_playable:
        void = ", ".join(str(match.no) for match in draw.void_matches)
        raise CouponRejected(
            RejectionCode.DRAW_NOT_PLAYABLE,
            f"draw {draw.draw_id} will not be played: matches {void} are void (T-5.5)",
        )
    if not is_adult(birth_date, now.date()):
        raise CouponRejected(RejectionCode.UNDERAGE_PLAYER, f"players must be {ADULT_AGE} or older")
    if not draw.accepts(currency):
        accepted = ", ".join(terms.currency for terms in draw.currencies)
        raise CouponRejected(
            RejectionCode.CURRENCY_NOT_ACCEPTED, f"draw {draw.draw_id} accepts {accepted}, not {currency}"
        )
    masks = encode_picks(draw, picks)
    check_minimum_stake(draw, currency, amount, bet_count(masks))
    return Coupon(coupon_id=coupon_id, currency=currency, amount=amount, picks=masks)
