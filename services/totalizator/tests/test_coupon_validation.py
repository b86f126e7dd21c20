"""Accepting a coupon (T-1.4, T-2.1, T-2.2, T-2.4, T-2.5): every refusal has a code and a message."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from totalizator.domain import CouponRejected, RejectionCode, decode_picks, validate_coupon

ADULT = date(1990, 5, 17)
ALL_ONE_NIL = [["1:0"]] * 8


def submit(kit, draw=None, *, currency="USD", amount=10, picks=ALL_ONE_NIL, birth_date=ADULT, now=None):
    draw = draw or kit.draw()
    return validate_coupon(
        draw,
        coupon_id="c1",
        currency=currency,
        amount=amount,
        picks=picks,
        birth_date=birth_date,
        now=now or kit.close_at - timedelta(hours=1),
    )


def refusal(kit, **kwargs) -> CouponRejected:
    with pytest.raises(CouponRejected) as caught:
        submit(kit, **kwargs)
    assert caught.value.message == str(caught.value) and caught.value.message
    return caught.value


def test_t2_4_a_coupon_holds_the_product_of_its_picks_per_match_as_bets(kit) -> None:
    picks = [["1:0", "0:0"], ["1:0", "0:0", "2:1"], *[["1:0"]] * 6]
    coupon = submit(kit, picks=picks, amount=60)
    assert coupon.bets == 6
    assert decode_picks(kit.draw(), coupon.picks)[:2] == (("0:0", "1:0"), ("0:0", "1:0", "2:1"))


def test_t2_4_the_minimum_amount_is_the_minimum_stake_times_the_number_of_bets(kit) -> None:
    picks = [["1:0", "0:0"], ["1:0", "0:0", "2:1"], *[["1:0"]] * 6]
    assert submit(kit, picks=picks, amount=60).amount == 60  # 6 bets × USD 0.10
    error = refusal(kit, picks=picks, amount=59)
    assert error.code == RejectionCode.BELOW_MINIMUM_STAKE == "below_minimum_stake"
    assert "0.60 USD" in error.message
    assert refusal(kit, currency="JPY", amount=14).code == RejectionCode.BELOW_MINIMUM_STAKE
    assert submit(kit, currency="JPY", amount=15).currency == "JPY"


def test_t2_5_a_bet_at_or_after_the_closing_time_is_refused(kit) -> None:
    assert submit(kit, now=kit.close_at - timedelta(microseconds=1)).amount == 10
    assert refusal(kit, now=kit.close_at).code == RejectionCode.BETTING_CLOSED
    assert refusal(kit, now=kit.close_at + timedelta(days=1)).code == RejectionCode.BETTING_CLOSED


def test_t1_4_a_player_under_18_is_refused_and_one_18_today_accepted(kit) -> None:
    today = (kit.close_at - timedelta(hours=1)).date()
    eighteen_today = today.replace(year=today.year - 18)
    assert submit(kit, birth_date=eighteen_today).amount == 10
    error = refusal(kit, birth_date=eighteen_today + timedelta(days=1))
    assert error.code == RejectionCode.UNDERAGE_PLAYER


def test_t1_4_someone_born_on_29_february_comes_of_age_on_1_march(kit) -> None:
    leap_born = date(2012, 2, 29)
    assert refusal(kit, birth_date=leap_born, now=datetime(2030, 2, 28, 12, tzinfo=UTC)).code == "underage_player"
    assert submit(kit, birth_date=leap_born, now=datetime(2030, 3, 1, 12, tzinfo=UTC)).amount == 10


def test_t2_2_a_currency_without_announced_minimum_is_refused(kit) -> None:
    error = refusal(kit, currency="GBP")
    assert error.code == RejectionCode.CURRENCY_NOT_ACCEPTED
    assert "USD, EUR, JPY" in error.message


@pytest.mark.parametrize(
    ("picks", "code"),
    [
        ([["1:0"]] * 7, RejectionCode.WRONG_MATCH_COUNT),
        ([["1:0"]] * 9, RejectionCode.WRONG_MATCH_COUNT),
        ([[], *[["1:0"]] * 7], RejectionCode.NO_OPTION_PICKED),
        ([["5:0"], *[["1:0"]] * 7], RejectionCode.OPTION_NOT_OFFERED),
        ([["1:0", "1:0"], *[["1:0"]] * 7], RejectionCode.DUPLICATE_OPTION),
    ],
)
def test_t2_1_t2_4_picks_must_be_offered_options_one_or_more_per_match(kit, picks, code) -> None:
    assert refusal(kit, picks=picks, amount=1000).code == code


def test_t2_5_closing_is_checked_before_anything_else(kit) -> None:
    error = refusal(kit, now=kit.close_at, currency="GBP", picks=[], birth_date=date(2029, 1, 1))
    assert error.code == RejectionCode.BETTING_CLOSED
