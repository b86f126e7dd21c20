"""Settlement, rule by rule (T-1.2, T-2.3, T-2.4, T-3 to T-6), on small draws with hand-computed figures.

Every match of the kit's draws ends 1:0; `kit.single(draw, id, amount, right=k)` is a one-line coupon with
exactly k valid matches right. Amounts are decimal strings in the coupon's currency.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

from totalizator.domain import Settlement, refund_all, settle
from totalizator.domain.prizes import MIN_COEFFICIENT


def paid(settlement: Settlement) -> dict[str, int]:
    return {payout.coupon_id: payout.amount for payout in settlement.payouts}


def funds(settlement: Settlement) -> list[Fraction]:
    return [category.fund_usd for category in settlement.categories]


def coefficient(settlement: Settlement, right: int) -> Fraction:
    return next(c.paid for c in settlement.coefficients if c.right == right)


def assert_money_balances(settlement: Settlement) -> None:
    assert settlement.money_in_usd == settlement.money_out_usd


def worked_example(kit):
    """T-7: pool USD 100,000, jackpot USD 200,000, the best bet has 5 right."""
    draw = kit.draw(jackpot="200000")
    coupons = [
        kit.single(draw, "five", "10000.00", right=5),
        kit.single(draw, "four", "20000.00", right=4),
        kit.single(draw, "three", "30000.00", right=3),
        kit.single(draw, "two", "20000.00", right=2),
        kit.single(draw, "none", "20000.00", right=0),
    ]
    return settle(draw, coupons)


def test_t7_t3_2_worked_example_unwon_categories_30_percent_to_category_4_and_70_percent_to_jackpot(kit):
    settlement = worked_example(kit)
    assert settlement.pool_usd == 100_000
    assert settlement.prize_fund_usd == 95_000
    assert funds(settlement) == [0, 0, 0, 16_000, 15_000, 20_000, 30_000]
    assert [c.won for c in settlement.categories] == [False, False, False, True, True, True, True]
    assert settlement.jackpot.from_pool_usd == 14_000
    assert settlement.jackpot.played_usd == 0
    assert settlement.jackpot.next_usd == 214_000
    assert_money_balances(settlement)


def test_t3_cumulative_participation_a_bet_shares_every_category_up_to_its_number_right(kit):
    settlement = worked_example(kit)
    # winning stakes: ≥5 right 10,000; ≥4 30,000; ≥3 60,000; ≥2 80,000 (T-3: cumulative)
    assert [c.winning_stake_usd for c in settlement.categories][3:] == [10_000, 30_000, 60_000, 80_000]
    assert coefficient(settlement, 5) == Fraction(16_000, 10_000) + Fraction(15_000, 30_000) + Fraction(
        20_000, 60_000
    ) + Fraction(30_000, 80_000)
    assert paid(settlement)["five"] == 2_808_333  # 10,000 × 337/120 = 28,083.33⅓, floored (T-6.3)


def test_t1_2_t3_1_two_right_wins_in_proportion_to_stake_one_right_loses(kit):
    draw = kit.draw()
    settlement = settle(
        draw,
        [
            kit.single(draw, "small", "1.00", right=2),
            kit.single(draw, "large", "3.00", right=2),
            kit.single(draw, "one", "6.00", right=1),
        ],
    )
    # Category 7: 30% of 10 + 30% of the unwon 65% = 4.95 over a winning stake of 4: coefficient 1.2375.
    assert funds(settlement)[-1] == Fraction("4.95")
    assert coefficient(settlement, 2) == Fraction("1.2375")
    assert paid(settlement) == {"small": 123, "large": 371}  # 1.2375 and 3.7125, floored
    assert_money_balances(settlement)


def test_t3_3_nobody_with_two_right_sends_the_whole_prize_fund_to_the_jackpot(kit):
    draw = kit.draw(jackpot="500")
    settlement = settle(draw, [kit.single(draw, "a", "60.00", right=1), kit.single(draw, "b", "40.00", right=0)])
    assert settlement.payouts == ()
    assert funds(settlement) == [0] * 7
    assert settlement.jackpot.from_pool_usd == 95
    assert settlement.jackpot.next_usd == 595
    assert settlement.organizer_share_usd == 5
    assert_money_balances(settlement)


def test_t3_t4_2_a_lone_eight_takes_every_category_and_the_whole_jackpot(kit):
    draw = kit.draw(jackpot="1000")
    settlement = settle(draw, [kit.single(draw, "eight", "10.00", right=8), kit.single(draw, "x", "90.00", right=0)])
    assert funds(settlement) == [5, 5, 10, 10, 15, 20, 30]
    # 95/10 from the categories, (950 + 50)/10 from the jackpot
    assert coefficient(settlement, 8) == Fraction("109.5")
    assert paid(settlement) == {"eight": 109_500}
    assert settlement.jackpot.played_usd == 1000
    assert settlement.jackpot.next_usd == 0


def test_t4_2_eights_share_95_percent_of_the_jackpot_and_sevens_with_eights_share_5_percent(kit):
    draw = kit.draw(jackpot="1000")
    settlement = settle(
        draw,
        [
            kit.single(draw, "eight-1", "1.00", right=8),
            kit.single(draw, "eight-3", "3.00", right=8),
            kit.single(draw, "seven", "4.00", right=7),
            kit.single(draw, "none", "2.00", right=0),
        ],
    )
    parts = {part.min_right: part for part in settlement.jackpot.parts}
    assert (parts[8].fund_usd, parts[8].winning_stake_usd) == (950, 4)
    assert (parts[7].fund_usd, parts[7].winning_stake_usd) == (50, 8)
    # eight: 0.5/4 + (0.5+1+1+1.5+2+3)/8 + 950/4 + 50/8 = 245; seven: 9/8 + 50/8 = 7.375
    assert coefficient(settlement, 8) == 245
    assert coefficient(settlement, 7) == Fraction("7.375")
    assert paid(settlement) == {"eight-1": 24_500, "eight-3": 73_500, "seven": 2_950}
    assert settlement.jackpot.next_usd == 0
    assert_money_balances(settlement)


def test_t4_3_with_sevens_but_no_eight_the_sevens_share_5_percent_and_95_percent_carries_over(kit):
    draw = kit.draw(jackpot="1000")
    settlement = settle(draw, [kit.single(draw, "seven", "2.00", right=7), kit.single(draw, "x", "8.00", right=0)])
    assert settlement.jackpot.played_usd == 50
    # next: 1000 − 50 played + 70% of unwon category 1 (0.50)
    assert settlement.jackpot.next_usd == Fraction("950.35")
    # category 2 gets 0.50 + 30% of 0.50 (T-3.2); categories 3..7 their shares; plus 50/2 of jackpot
    assert coefficient(settlement, 7) == Fraction("0.65") / 2 + Fraction("8.5") / 2 + 25
    assert paid(settlement) == {"seven": 5_915}
    assert_money_balances(settlement)


def test_t4_3_nobody_with_seven_leaves_the_jackpot_unplayed(kit):
    draw = kit.draw(jackpot="1000")
    settlement = settle(draw, [kit.single(draw, "six", "2.00", right=6), kit.single(draw, "x", "8.00", right=0)])
    assert settlement.jackpot.played_usd == 0
    assert settlement.jackpot.next_usd == 1000 + Fraction("0.7")  # plus 70% of unwon categories 1–2
    assert_money_balances(settlement)


def test_t4_4_the_organizer_top_up_is_played_as_part_of_the_jackpot(kit):
    draw = kit.draw(jackpot="900", topup="100")
    settlement = settle(draw, [kit.single(draw, "eight", "10.00", right=8), kit.single(draw, "x", "90.00", right=0)])
    assert draw.jackpot_usd == 1000
    assert settlement.jackpot.available_usd == 1000
    assert paid(settlement) == {"eight": 109_500}
    assert_money_balances(settlement)


def test_t5_2_one_void_match_shares_and_25_percent_of_the_jackpot_for_all_seven_valid_right(kit):
    draw = kit.draw(jackpot="1000", void=[8])
    settlement = settle(
        draw,
        [
            kit.single(draw, "seven", "2.00", right=7),
            kit.single(draw, "two", "3.00", right=2),
            kit.single(draw, "none", "5.00", right=0),
        ],
    )
    assert settlement.void_matches == (8,)
    assert [(c.min_right, c.share_of_pool) for c in settlement.categories] == [
        (7, Fraction(5, 100)),
        (6, Fraction(5, 100)),
        (5, Fraction(10, 100)),
        (4, Fraction(10, 100)),
        (3, Fraction(15, 100)),
        (2, Fraction(50, 100)),
    ]
    assert funds(settlement) == [Fraction("0.5"), Fraction("0.5"), 1, 1, Fraction("1.5"), 5]
    assert [(part.min_right, part.fund_usd) for part in settlement.jackpot.parts] == [(7, 250)]
    assert settlement.jackpot.next_usd == 750
    assert coefficient(settlement, 7) == Fraction("4.5") / 2 + Fraction(5, 5) + Fraction(250, 2)
    assert paid(settlement) == {"seven": 25_650, "two": 360}  # the two-right bet: 1.0 raised to 1.2
    assert_money_balances(settlement)


def test_t5_2_one_void_match_and_nobody_with_seven_right_carries_the_whole_jackpot(kit):
    draw = kit.draw(jackpot="1000", void=[3])
    settlement = settle(draw, [kit.single(draw, "six", "2.00", right=6), kit.single(draw, "x", "8.00", right=0)])
    assert settlement.jackpot.played_usd == 0
    assert settlement.jackpot.next_usd == 1000 + Fraction("0.35")  # + 70% of unwon category 1 (5% of 10)
    assert_money_balances(settlement)


def test_t5_3_two_void_matches_shares_and_no_jackpot_played(kit):
    draw = kit.draw(jackpot="1000", void=[7, 8])
    settlement = settle(draw, [kit.single(draw, "six", "2.00", right=6), kit.single(draw, "x", "8.00", right=0)])
    assert [(c.min_right, c.share_of_pool) for c in settlement.categories] == [
        (6, Fraction(5, 100)),
        (5, Fraction(5, 100)),
        (4, Fraction(10, 100)),
        (3, Fraction(10, 100)),
        (2, Fraction(65, 100)),
    ]
    assert settlement.jackpot.parts == ()
    assert settlement.jackpot.played_usd == 0
    assert settlement.jackpot.next_usd == 1000
    assert paid(settlement) == {"six": 950}  # the whole prize fund, 9.50
    assert_money_balances(settlement)


def test_t5_4_a_void_match_is_never_right_and_multiplies_the_lines_of_a_system(kit):
    draw = kit.draw(void=[8])
    right_on_seven = [["1:0"]] * 7
    system = kit.coupon(draw, "system", "3.00", [*right_on_seven, ["1:0", "0:0", "2:0"]])  # 1:0 is "the result"
    split = kit.coupon(draw, "split", "2.00", [["1:0", "0:0"], *right_on_seven[1:], ["1:0"]])
    settlement = settle(draw, [system, split])
    # system: 3 lines with all 7 valid right; split: one line with 7 right, one with 6
    assert settlement.lines_by_right == (0, 0, 0, 0, 0, 0, 1, 4)
    assert settlement.stake_by_right_usd[7] == 3 + 1  # each line carries an equal part of its coupon (T-2.4)
    assert settlement.stake_by_right_usd[6] == 1
    assert_money_balances(settlement)


def test_t5_1_a_match_kicked_off_before_closing_is_void_without_any_decision(kit):
    draw = kit.draw().with_kickoff(2, kit.close_at.replace(minute=0, hour=19))
    assert [match.no for match in draw.void_matches] == [2]
    settlement = settle(draw, [kit.single(draw, "seven", "1.00", right=7)])
    assert settlement.void_matches == (2,)
    assert settlement.categories[0].min_right == 7


def test_t5_5_three_void_matches_refund_every_coupon_and_keep_the_jackpot(kit):
    draw = kit.draw(jackpot="1000", void=[1, 4, 6])
    coupons = [kit.single(draw, "a", "2.00", right=5), kit.single(draw, "b", "300", right=0, currency="JPY")]
    settlement = settle(draw, coupons)
    assert settlement.refunded
    assert paid(settlement) == {"a": 200, "b": 300}
    assert settlement.jackpot.next_usd == 1000
    assert settlement.organizer_share_usd == 0
    assert settlement.pool_usd == 2 + Fraction("2.01")  # 300 JPY at 0.0067
    assert_money_balances(settlement)


def test_t5_5_refund_all_cancels_a_draw_without_void_matches(kit):
    draw = kit.draw(jackpot="10")
    coupons = [kit.single(draw, "a", "2.00", right=8), kit.single(draw, "b", "1.50", right=0, currency="EUR")]
    settlement = refund_all(draw, coupons)
    assert paid(settlement) == {"a": 200, "b": 150}
    assert settlement.paid_by_currency == {"USD": 200, "EUR": 150}
    assert settlement.jackpot.next_usd == 10
    assert_money_balances(settlement)


def test_t2_3_stakes_in_other_currencies_enter_the_pool_at_the_fixed_rate(kit):
    draw = kit.draw()
    settlement = settle(
        draw,
        [
            kit.single(draw, "eur", "2.00", right=0, currency="EUR"),
            kit.single(draw, "jpy", "1500", right=0, currency="JPY"),
            kit.single(draw, "usd", "0.10", right=0),
        ],
    )
    assert settlement.pool_usd == Fraction("2.1686") + Fraction("10.05") + Fraction("0.10")


def test_t6_1_the_same_coefficient_pays_every_currency_in_its_own_money(kit):
    draw = kit.draw()
    settlement = settle(
        draw,
        [
            kit.single(draw, "usd", "1.00", right=8),
            kit.single(draw, "eur", "2.00", right=8, currency="EUR"),
            kit.single(draw, "jpy", "1000", right=8, currency="JPY"),
            kit.single(draw, "x", "10.00", right=0),
        ],
    )
    winning_stake = 1 + Fraction("2.1686") + Fraction("6.7")
    assert settlement.pool_usd == winning_stake + 10
    eight = settlement.pool_usd * Fraction(95, 100) / winning_stake  # every category, no jackpot
    assert coefficient(settlement, 8) == eight
    assert paid(settlement) == {"usd": floor(100 * eight), "eur": floor(200 * eight), "jpy": floor(1000 * eight)}
    assert_money_balances(settlement)


def test_t6_2_every_winning_bet_gets_at_least_1_2_times_its_stake_the_organizer_tops_up(kit):
    settlement = worked_example(kit)
    assert next(c.pool for c in settlement.coefficients if c.right == 2) == Fraction(3, 8)
    assert coefficient(settlement, 2) == coefficient(settlement, 3) == MIN_COEFFICIENT
    assert paid(settlement)["two"] == 2_400_000 and paid(settlement)["three"] == 3_600_000
    # top-up: 30,000 × (1.2 − 17/24) + 20,000 × (1.2 − 3/8)
    assert settlement.organizer_topup_usd == 14_750 + 16_500
    assert_money_balances(settlement)


def test_t6_3_payouts_are_floored_to_the_minor_unit_and_the_remainder_reported(kit):
    settlement = worked_example(kit)
    assert paid(settlement)["four"] == 2_416_666  # 20,000 × 29/24 = 24,166.66⅔
    assert settlement.rounding_remainder_usd == Fraction(1, 100)  # ⅓ + ⅔ of a cent
    assert settlement.paid_usd == Fraction("112249.99")
    # paid + to the jackpot + remainder + organizer share = pool + jackpot played + top-up
    assert settlement.paid_usd + 14_000 + Fraction("0.01") + 5_000 == 100_000 + 0 + 31_250
    assert_money_balances(settlement)


def test_t6_3_a_yen_payout_is_floored_to_the_yen(kit):
    draw = kit.draw()
    settlement = settle(
        draw,
        [kit.single(draw, "jpy", "1000", right=8, currency="JPY"), kit.single(draw, "x", "3.33", right=0)],
    )
    exact = 1000 * settlement.pool_usd * Fraction(95, 100) / Fraction("6.7")
    assert paid(settlement) == {"jpy": floor(exact)}
    assert settlement.rounding_remainder_usd == (exact - floor(exact)) * Fraction("0.0067")
    assert_money_balances(settlement)


def test_t2_4_a_system_coupon_is_paid_once_for_all_its_winning_lines(kit):
    draw = kit.draw()
    picks = [["1:0", "0:0"], ["1:0", "0:1"], *[["1:0"]] * 6]  # 4 lines: one 8 right, two 7, one 6
    settlement = settle(draw, [kit.coupon(draw, "system", "4.00", picks), kit.single(draw, "x", "6.00", right=0)])
    assert settlement.lines_by_right[6:] == (1, 2, 1)
    assert len(settlement.payouts) == 1
    exact = sum(coefficient(settlement, right) * lines for right, lines in [(8, 1), (7, 2), (6, 1)])
    assert paid(settlement) == {"system": floor(100 * exact)}  # 1.00 per line
