"""The organizer's whole-minor-unit transfers that empty each currency's pool (domain/transfers.py; T-1.1, T-3.2,
T-3.3, T-4, T-6.2, T-6.3)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from totalizator.domain import pool_transfers, refund_all, settle
from totalizator.domain.transfers import jackpot_net

CURRENCY_AMOUNTS = {
    "USD": ["0.10", "1.00", "2.35", "10.00"],
    "EUR": ["0.10", "0.77", "5.00"],
    "JPY": ["15", "40", "999"],
}


@st.composite
def settled_draws(draw_: st.DrawFn, kit):  # type: ignore[no-untyped-def]
    void = draw_(st.lists(st.integers(1, 8), max_size=2, unique=True))
    jackpot = draw_(st.sampled_from(["0", "123.45", "250000"]))
    draw = kit.draw(jackpot=jackpot, void=void)
    specs = draw_(
        st.lists(
            st.tuples(st.sampled_from(sorted(CURRENCY_AMOUNTS)), st.integers(0, 8 - len(void)), st.data()),
            min_size=1,
            max_size=25,
        )
    )
    coupons = [
        kit.single(
            draw, f"c{n}", data.draw(st.sampled_from(CURRENCY_AMOUNTS[currency])), right=right, currency=currency
        )
        for n, (currency, right, data) in enumerate(specs)
    ]
    return draw, settle(draw, coupons)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_t6_3_every_pool_ends_empty_and_the_transfers_match_the_exact_settlement(kit, data) -> None:
    draw, settlement = data.draw(settled_draws(kit))
    transfers = pool_transfers(settlement)
    usd_per_minor = {terms.currency: terms.usd_per_minor_unit for terms in draw.currencies}
    for pool, totals in zip(transfers, settlement.currencies, strict=True):
        assert pool.money_in == pool.money_out  # the pool ends empty
        amounts = (pool.organizer_top_up, pool.jackpot_release, pool.organizer_share, pool.jackpot_carry)
        assert min(*amounts, pool.rounding_remainder) >= 0
        assert not (pool.jackpot_release and pool.jackpot_carry)
        # Whole minor units of exact amounts, rounded once each: the remainder absorbs less than 3 units.
        assert 0 <= pool.rounding_remainder - (totals.owed - totals.paid) < 3
        assert abs(pool.organizer_top_up - totals.topup) < 1 and abs(pool.organizer_share - totals.organizer_share) < 1

    # In US dollars at the draw's rates, the exact per-currency amounts add up to the settlement's own.
    def usd(amounts: dict[str, Fraction]) -> Fraction:
        return sum((amount * usd_per_minor[currency] for currency, amount in amounts.items()), Fraction(0))

    assert usd({t.currency: t.topup for t in settlement.currencies}) == settlement.organizer_topup_usd
    assert usd({t.currency: t.organizer_share for t in settlement.currencies}) == settlement.organizer_share_usd
    net = usd({t.currency: jackpot_net(t) for t in settlement.currencies})
    assert net == settlement.jackpot.played_usd - settlement.jackpot.from_pool_usd  # = −(next − available)


def test_t3_3_with_no_winner_the_pool_goes_to_the_organizer_and_the_jackpot(kit) -> None:
    draw = kit.draw()
    coupons = [kit.single(draw, "a", "10.01", right=1), kit.single(draw, "b", "3.00", right=0, currency="EUR")]
    (usd, eur) = pool_transfers(settle(draw, coupons))
    assert (usd.staked, usd.organizer_share, usd.jackpot_carry, usd.rounding_remainder) == (1001, 50, 950, 1)
    assert (eur.staked, eur.organizer_share, eur.jackpot_carry, eur.rounding_remainder) == (300, 15, 285, 0)
    assert usd.paid == eur.paid == usd.organizer_top_up == usd.jackpot_release == 0


def test_t6_2_a_winner_paid_beyond_the_pool_is_topped_up_by_the_organizer(kit) -> None:
    draw = kit.draw()
    (pool,) = pool_transfers(settle(draw, [kit.single(draw, "w", "1.00", right=2)]))
    # The lone winner takes category 7 (30%) plus 30% of the unwon 65% (T-3.2): 0.495; it is owed 1.20
    # (T-6.2), so the organizer adds 0.705, rounded up to 0.71. 70% of the unwon 65%, 0.455, is carried (0.45).
    assert (pool.paid, pool.organizer_top_up, pool.organizer_share, pool.jackpot_carry) == (120, 71, 5, 45)
    assert pool.rounding_remainder == 1 and pool.money_in == pool.money_out


def test_t5_5_a_refund_moves_nothing_but_the_stakes_back(kit) -> None:
    draw = kit.draw(jackpot="500")
    coupons = [kit.single(draw, "a", "2.00", right=8), kit.single(draw, "b", "40", right=3, currency="JPY")]
    for pool in pool_transfers(refund_all(draw, coupons)):
        assert pool.paid == pool.staked
        assert (pool.organizer_top_up, pool.jackpot_release, pool.organizer_share, pool.jackpot_carry) == (0, 0, 0, 0)
        assert pool.rounding_remainder == 0
