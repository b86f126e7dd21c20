"""Properties of settlement on random small draws (Hypothesis).

- counting lines per number right equals expanding every coupon into its lines (`settle_by_expansion`);
- both agree with an independent, line-by-line reading of the spec written here (T-3 to T-6);
- the money invariant of T-6.3 holds exactly.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import product
from math import floor

from hypothesis import given, settings
from hypothesis import strategies as st
from totalizator.domain import (
    CATCH_ALLS,
    Coupon,
    CurrencyTerms,
    Draw,
    Match,
    decode_picks,
    settle,
    settle_by_expansion,
)
from totalizator.domain.counting import right_count_distribution

CLOSE_AT = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
OPTIONS = ("1:0", *CATCH_ALLS)  # four results per match keep full expansion cheap


@st.composite
def draws(draw_: st.DrawFn) -> Draw:
    """8 matches of 4 options with random results; up to 3 void (by decision or early kick-off)."""
    void = draw_(st.lists(st.integers(1, 8), max_size=3, unique=True))
    early = draw_(st.booleans())  # the first void match kicked off before closing instead of being declared
    matches = tuple(
        Match(
            no,
            "H",
            "A",
            CLOSE_AT - timedelta(minutes=5) if early and void and no == void[0] else CLOSE_AT + timedelta(hours=1),
            OPTIONS,
            result=draw_(st.sampled_from(OPTIONS)),
            declared_void=no in void and not (early and no == void[0]),
        )
        for no in range(1, 9)
    )
    eur_rate = Fraction(draw_(st.integers(1, 30_000)), 10_000)
    currencies = (
        CurrencyTerms("USD", 10, Fraction(1)),
        CurrencyTerms("EUR", draw_(st.integers(1, 50)), eur_rate),
        CurrencyTerms("JPY", draw_(st.integers(1, 50)), Fraction(67, 10_000)),
    )
    jackpot = Fraction(draw_(st.integers(0, 10**8)), 100)
    topup = Fraction(draw_(st.sampled_from([0, 0, 1, 12_345])), 1)
    return Draw("p", CLOSE_AT, matches, currencies, jackpot, topup)


@st.composite
def coupons(draw_: st.DrawFn, draw: Draw) -> list[Coupon]:
    """Up to 12 coupons: one pick per match, plus extra picks on up to 3 matches (≤ 64 lines).

    Picks often lean towards the results so that sevens and eights (the jackpot rules) come up, and
    otherwise are uniform so that draws where nobody has two right (T-3.3) come up too.
    """
    results = [OPTIONS.index(match.result or OPTIONS[0]) for match in draw.matches]
    lean = draw_(st.booleans())
    result = []
    for n in range(draw_(st.integers(0, 12))):
        masks = [
            1 << draw_(st.one_of(st.just(right), st.integers(0, 3)) if lean else st.integers(0, 3)) for right in results
        ]
        for match_index in draw_(st.lists(st.integers(0, 7), max_size=3, unique=True)):
            masks[match_index] |= draw_(st.integers(1, 15))
        terms = draw_(st.sampled_from(draw.currencies))
        bets = 1
        for mask in masks:
            bets *= mask.bit_count()
        amount = terms.min_stake * bets + draw_(st.integers(0, 10_000))
        result.append(Coupon(f"c{n}", terms.currency, amount, tuple(masks)))
    return result


draws_with_coupons = draws().flatmap(lambda d: st.tuples(st.just(d), coupons(d)))


@given(draws_with_coupons)
def test_t3_to_t6_settlement_by_counting_equals_settlement_by_expanding_every_line(case) -> None:
    draw, coupon_list = case
    assert settle(draw, coupon_list) == settle_by_expansion(draw, coupon_list)


@given(draws_with_coupons)
def test_t6_3_money_invariant_holds_exactly_on_random_draws(case) -> None:
    draw, coupon_list = case
    settlement = settle(draw, coupon_list)
    assert settlement.money_in_usd == settlement.money_out_usd
    assert settlement.rounding_remainder_usd >= 0
    assert settlement.jackpot.next_usd >= 0
    assert all(payout.amount > 0 for payout in settlement.payouts)


@settings(max_examples=200)
@given(draws_with_coupons)
def test_t3_to_t6_settlement_agrees_with_a_line_by_line_reading_of_the_spec(case) -> None:
    draw, coupon_list = case
    settlement = settle(draw, coupon_list)
    expected_payouts, expected_next_jackpot = spec_oracle(draw, coupon_list)
    assert {p.coupon_id: p.amount for p in settlement.payouts} == expected_payouts
    assert settlement.jackpot.next_usd == expected_next_jackpot


@given(st.lists(st.tuples(st.integers(1, 4), st.booleans()), max_size=6), st.integers(1, 5))
def test_t2_4_lines_per_number_right_is_the_polynomial_product(picks_and_hits, void_picks) -> None:
    """The count of lines with k right equals brute-force enumeration of the lines."""
    counts = [0] * (len(picks_and_hits) + 1)
    for line in product(*[range(picks) for picks, _ in picks_and_hits], range(void_picks)):
        counts[sum(hit and pick == 0 for pick, (_, hit) in zip(line, picks_and_hits, strict=False))] += 1
    assert right_count_distribution(((p, int(h)) for p, h in picks_and_hits), void_picks) == tuple(counts)


# --- An independent reading of the spec, one line (bet) at a time -----------------------------------------

CATEGORY_PERCENT = {  # T-3, T-5.2, T-5.3: (matches right at least, % of the pool)
    0: [(8, 5), (7, 5), (6, 10), (5, 10), (4, 15), (3, 20), (2, 30)],
    1: [(7, 5), (6, 5), (5, 10), (4, 10), (3, 15), (2, 50)],
    2: [(6, 5), (5, 5), (4, 10), (3, 10), (2, 65)],
}
JACKPOT_PERCENT = {0: [(8, 95), (7, 5)], 1: [(7, 25)], 2: []}  # T-4.2, T-5.2, T-5.3


def spec_oracle(draw: Draw, coupon_list: list[Coupon]) -> tuple[dict[str, int], Fraction]:
    """Payouts per coupon (minor units) and the next jackpot, straight from the rules' wording."""
    void = [match.is_void(draw.close_at) for match in draw.matches]
    if sum(void) >= 3:  # T-5.5
        return {c.coupon_id: c.amount for c in coupon_list}, draw.jackpot_usd
    bets = []  # (coupon, stake in USD, stake in minor units, matches right)
    for coupon in coupon_list:
        terms = draw.terms(coupon.currency)
        lines = list(product(*decode_picks(draw, coupon.picks)))
        for line in lines:
            right = sum(
                1 for pick, match, v in zip(line, draw.matches, void, strict=True) if not v and pick == match.result
            )
            usd = Fraction(coupon.amount) * terms.usd_rate / 10**terms.exponent / len(lines)
            bets.append((coupon, usd, Fraction(coupon.amount, len(lines)), right))
    pool = sum((usd for _, usd, _, _ in bets), Fraction(0))
    best = max((right for *_, right in bets), default=0)

    categories = CATEGORY_PERCENT[sum(void)]
    if best < 2:  # T-3.3
        fund = [Fraction(0)] * len(categories)
        to_jackpot = pool * Fraction(95, 100)
    else:  # T-3.2
        fund = [pool * percent / 100 if best >= least else Fraction(0) for least, percent in categories]
        unwon = sum(pool * percent / 100 for least, percent in categories if best < least)
        top = next(i for i, (least, _) in enumerate(categories) if best >= least)
        fund[top] += unwon * Fraction(30, 100)
        to_jackpot = unwon * Fraction(70, 100)

    def stake_with_at_least(least: int) -> Fraction:
        return sum((usd for _, usd, _, right in bets if right >= least), Fraction(0))

    jackpot_parts = [
        (least, draw.jackpot_usd * percent / 100)
        for least, percent in JACKPOT_PERCENT[sum(void)]
        if stake_with_at_least(least) > 0
    ]

    exact: dict[str, Fraction] = {}
    for coupon, _, minor_stake, right in bets:
        if right < 2:
            continue
        coefficient = sum(
            (f / stake_with_at_least(least) for (least, _), f in zip(categories, fund, strict=True) if right >= least),
            Fraction(0),
        ) + sum((f / stake_with_at_least(least) for least, f in jackpot_parts if right >= least), Fraction(0))
        coefficient = max(coefficient, Fraction(6, 5))  # T-6.2
        exact[coupon.coupon_id] = exact.get(coupon.coupon_id, Fraction(0)) + minor_stake * coefficient
    payouts = {coupon_id: floor(amount) for coupon_id, amount in exact.items() if floor(amount) > 0}
    next_jackpot = draw.jackpot_usd - sum((f for _, f in jackpot_parts), Fraction(0)) + to_jackpot
    return payouts, next_jackpot


def test_the_oracle_reproduces_the_worked_example(kit) -> None:
    """T-7, to make sure the oracle itself reads the rules right."""
    draw = kit.draw(jackpot="200000")
    coupon_list = [
        kit.single(draw, "five", "10000.00", right=5),
        kit.single(draw, "four", "20000.00", right=4),
        kit.single(draw, "none", "70000.00", right=0),
    ]
    payouts, next_jackpot = spec_oracle(draw, coupon_list)
    assert next_jackpot == 214_000
    assert payouts == {p.coupon_id: p.amount for p in settle(draw, coupon_list).payouts}
