"""Live statistics while bets are accepted (T-2.6): bets and amount per match and result."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from totalizator.domain import LiveStatistics, standard_options


def test_t2_6_statistics_count_bets_and_amounts_per_option_as_coupons_arrive(kit) -> None:
    draw = kit.draw()
    statistics = LiveStatistics(draw)
    system = kit.coupon(draw, "s", "6.00", [["1:0", "0:0"], ["1:0", "0:0", "2:1"], *[["1:0"]] * 6])
    statistics.add(system)
    assert statistics.option(1, "1:0").bets == 3  # 6 bets, half of them on 1:0 in match 1
    assert statistics.option(1, "1:0").amount_usd == 3
    assert statistics.option(2, "2:1").bets == 2
    assert statistics.option(2, "2:1").amount_usd == 2
    assert statistics.option(3, "1:0").bets == 6
    assert statistics.option(3, "0:0").bets == 0

    statistics.add(kit.single(draw, "e", "2.00", right=8, currency="EUR"))
    assert statistics.option(3, "1:0").amount_usd == 6 + Fraction("2.1686")
    assert (statistics.coupons, statistics.bets, statistics.pool_usd) == (2, 7, 6 + Fraction("2.1686"))
    match_one = statistics.match(1)
    assert [row.option for row in match_one] == list(standard_options())
    assert sum(row.bets for row in match_one) == statistics.bets


@given(st.lists(st.lists(st.sets(st.sampled_from(["0:0", "1:0", "2:1"]), min_size=1), min_size=8, max_size=8)))
def test_t2_6_every_match_accounts_for_all_bets_and_the_whole_pool(kit, coupons_picks) -> None:
    draw = kit.draw()
    statistics = LiveStatistics(draw)
    for n, picks in enumerate(coupons_picks):
        statistics.add(kit.coupon(draw, f"c{n}", "9.00", [sorted(p) for p in picks]))
    for no in range(1, 9):
        rows = statistics.match(no)
        assert sum(row.bets for row in rows) == statistics.bets
        assert sum(row.amount_usd for row in rows) == statistics.pool_usd == 9 * len(coupons_picks)


@given(st.lists(st.sampled_from(["0:0", "1:0", "2:1"]), min_size=8, max_size=8), st.integers(0, 3))
def test_t2_6_statistics_resumed_from_a_snapshot_count_on_as_if_never_stopped(kit, picked, split) -> None:
    draw = kit.draw()
    coupons = [kit.coupon(draw, f"c{n}", f"{n + 1}.00", [[label] for label in picked]) for n in range(4)]
    whole = LiveStatistics(draw)
    for coupon in coupons:
        whole.add(coupon)
    first = LiveStatistics(draw)
    for coupon in coupons[:split]:
        first.add(coupon)
    resumed = LiveStatistics.resume(draw, first.snapshot())
    for coupon in coupons[split:]:
        resumed.add(coupon)
    assert resumed.snapshot() == whole.snapshot()
