"""Pure domain of the "exact score" totalizator (spec/totalizator.md, rules T-1..T-6): no I/O, no framework.

Public API for the service
--------------------------
Draws (T-2.1–T-2.3, T-4.4, T-5.1)
    standard_options(max_goals=4) -> tuple[str, ...]        "0:0".."4:4", "other home", "other draw", "other away"
    option_for_score(options, home, away) -> str             the option a final score maps to
    CurrencyTerms(currency, min_stake, usd_rate)             min_stake in minor units; usd_rate exact Fraction
    Match(no, home, away, kickoff, options, result=None, declared_void=False)
        .is_void(close_at)                                   by decision, or kicked off before closing
    Draw(draw_id, close_at, matches, currencies, jackpot_carried_usd=0, jackpot_topup_usd=0)
        .jackpot_usd  .terms(currency)  .accepts(currency)  .match(no)  .void_matches
        .with_score(no, home, away)  .with_result(no, option)  .with_void(no)  .with_kickoff(no, actual)
        .is_playable                                         False with three or more void matches (T-5.5)
        (value objects: the with_* methods return a new Draw)
    DrawStatus                                               the draw's life cycle (lifecycle.py)

Coupons (T-1.4, T-2.4, T-2.5)
    Coupon(coupon_id, currency, amount, picks)               amount in minor units; picks: one bitmask per
                                                             match over its options (bit i = options[i])
        .bets                                                product of the picks per match
    validate_coupon(draw, *, coupon_id, currency, amount, picks, birth_date, now) -> Coupon
        picks: the option labels picked per match; raises CouponRejected(code: RejectionCode, message)
    decode_picks(draw, coupon.picks) -> tuple[tuple[str, ...], ...]    back to option labels

Live statistics (T-2.6)
    LiveStatistics(draw): .add(coupon), .option(match_no, option) -> OptionStatistics(bets, amount_usd),
        .match(match_no), .coupons, .bets, .pool_usd, .snapshot() -> StatisticsSnapshot,
        LiveStatistics.resume(draw, snapshot)                 to keep counting from a stored snapshot

Settlement (T-3–T-6)
    settle(draw, coupons) -> Settlement                      every valid match needs a result; with three or
                                                             more void matches it refunds (T-5.5)
    refund_all(draw, coupons) -> Settlement                  T-5.5 or a cancelled draw
    settle_by_expansion(draw, coupons) -> Settlement         the same by expanding every line (cross-checks)
    Settlement: pool_usd, prize_fund_usd, organizer_share_usd, categories (CategoryOutcome: category,
        min_right, fund_usd, winning_stake_usd, bets), coefficients (Coefficient: right, pool, paid),
        jackpot (JackpotOutcome: available_usd, parts, played_usd, from_pool_usd, next_usd),
        organizer_topup_usd, payouts (Payout: coupon_id, currency, amount in minor units), paid_by_currency,
        paid_usd, rounding_remainder_usd, currencies (CurrencyTotals per currency: staked, paid, owed,
        topup, organizer_share in minor units), money_in_usd == money_out_usd
    The next draw's jackpot is Settlement.jackpot.next_usd (+ any organizer top-up, T-4.4).
    pool_transfers(settlement) -> tuple[PoolTransfers, ...]  per currency, the organizer's whole-minor-unit
                                                             transfers that settle the wallet's pool
    coupon_outcome(refunded=, paid=) -> CouponOutcome        won, lost or refunded, once the draw is over

Money: stakes and payouts are integer minor units of their currency; every US-dollar amount is an exact
Fraction (see settlement.py for how stakes become dollars and coefficients become payouts). Errors
(InvalidDraw, CouponRejected, CannotSettle, all TotalizatorError) carry a machine-readable `code` and a
human `message` (errors.py). The published files (T-8) are read and written by `totalizator.files`:
write_draw / read_draw, write_bets / read_bets, settlement_to_json (the verifier's report).
"""

from totalizator.domain.allocation import CategoryOutcome, Coefficient, JackpotPart
from totalizator.domain.coupon import Coupon, decode_picks, validate_coupon
from totalizator.domain.draw import MATCH_COUNT, CurrencyTerms, Draw, Match
from totalizator.domain.errors import (
    CannotSettle,
    CouponRejected,
    InvalidDraw,
    RejectionCode,
    TotalizatorError,
)
from totalizator.domain.expansion import settle_by_expansion
from totalizator.domain.lifecycle import DrawStatus
from totalizator.domain.options import CATCH_ALLS, option_for_score, standard_options
from totalizator.domain.outcome import CouponOutcome, coupon_outcome
from totalizator.domain.settlement import CurrencyTotals, JackpotOutcome, Payout, Settlement, refund_all, settle
from totalizator.domain.statistics import LiveStatistics, OptionStatistics, StatisticsSnapshot
from totalizator.domain.transfers import PoolTransfers, pool_transfers

__all__ = [
    "CATCH_ALLS",
    "MATCH_COUNT",
    "CannotSettle",
    "CategoryOutcome",
    "Coefficient",
    "Coupon",
    "CouponOutcome",
    "CouponRejected",
    "CurrencyTerms",
    "CurrencyTotals",
    "Draw",
    "DrawStatus",
    "InvalidDraw",
    "JackpotOutcome",
    "JackpotPart",
    "LiveStatistics",
    "Match",
    "OptionStatistics",
    "Payout",
    "PoolTransfers",
    "RejectionCode",
    "Settlement",
    "StatisticsSnapshot",
    "TotalizatorError",
    "coupon_outcome",
    "decode_picks",
    "option_for_score",
    "pool_transfers",
    "refund_all",
    "settle",
    "settle_by_expansion",
    "standard_options",
    "validate_coupon",
]
