"""The settlement as the verifier prints it (T-8.4): a JSON document of decimal strings.

US-dollar amounts are exact rationals in the settlement; here they are shown rounded half to even to the
micro-dollar (USD_PLACES), coefficients to COEFFICIENT_PLACES. Payouts are exact: minor units of the
coupon's currency written as a decimal string ("12.34", "1500" for JPY).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from totalizator.domain import Settlement
from totalizator.domain.currency import format_minor, minor_unit_exponent
from totalizator.files.decimals import exact_decimal, rounded_decimal

USD_PLACES = 6
COEFFICIENT_PLACES = 12


def usd(amount: Fraction) -> str:
    return rounded_decimal(amount, USD_PLACES)


def coefficient(value: Fraction) -> str:
    return rounded_decimal(value, COEFFICIENT_PLACES)


def settlement_to_json(settlement: Settlement) -> dict[str, Any]:
    jackpot = settlement.jackpot
    return {
        "draw_id": settlement.draw_id,
        "refunded": settlement.refunded,
        "void_matches": list(settlement.void_matches),
        "coupons": settlement.coupons,
        "bets": settlement.bets,
        "pool_usd": usd(settlement.pool_usd),
        "prize_fund_usd": usd(settlement.prize_fund_usd),
        "organizer_share_usd": usd(settlement.organizer_share_usd),
        "bets_by_right": [
            {"right": right, "bets": bets, "stake_usd": usd(stake)}
            for right, (bets, stake) in enumerate(
                zip(settlement.lines_by_right, settlement.stake_by_right_usd, strict=True)
            )
        ],
        "categories": [
            {
                "category": category.category,
                "min_right": category.min_right,
                "share_of_pool": exact_decimal(category.share_of_pool),
                "fund_usd": usd(category.fund_usd),
                "winning_stake_usd": usd(category.winning_stake_usd),
                "bets": category.bets,
            }
            for category in settlement.categories
        ],
        "coefficients": [
            {"right": c.right, "coefficient": coefficient(c.paid), "pool_coefficient": coefficient(c.pool)}
            for c in settlement.coefficients
        ],
        "jackpot": {
            "available_usd": usd(jackpot.available_usd),
            "played_usd": usd(jackpot.played_usd),
            "from_pool_usd": usd(jackpot.from_pool_usd),
            "next_usd": usd(jackpot.next_usd),
            "parts": [
                {
                    "min_right": part.min_right,
                    "share_of_jackpot": exact_decimal(part.share_of_jackpot),
                    "fund_usd": usd(part.fund_usd),
                    "winning_stake_usd": usd(part.winning_stake_usd),
                    "bets": part.bets,
                }
                for part in jackpot.parts
            ],
        },
        "organizer_topup_usd": usd(settlement.organizer_topup_usd),
        "paid_usd": usd(settlement.paid_usd),
        "rounding_remainder_usd": usd(settlement.rounding_remainder_usd),
        "payouts": [
            {
                "coupon_id": payout.coupon_id,
                "currency": payout.currency,
                "amount": format_minor(payout.amount, minor_unit_exponent(payout.currency)),
            }
            for payout in settlement.payouts
        ],
    }
