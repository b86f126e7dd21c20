"""Satellites (P-3.4): seats in the target at their full price, the cash remainder, ties across the last seat,
the early end when no more players are left than seats, and cancellation (P-10) of a running satellite."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from tournament_director.domain.entries import Price
from tournament_director.domain.payouts import PrizeTable, schedule_from_amounts
from tournament_director.domain.ranking import RankGroup
from tournament_director.domain.run import TournamentRun
from tournament_director.simulation import SimulationOptions, simulate
from tournament_director.simulation.setup import simulation_definition

SEAT = Price(prize_part_cents=10_000, fee_cents=1_000)
BUY_IN = Price(prize_part_cents=1_000, fee_cents=100)


def test_p3_4_the_pool_buys_seats_at_their_full_price_and_the_remainder_is_cash() -> None:
    table = PrizeTable.of_satellite(pool_cents=30_000, seat_price_cents=SEAT.total_cents)
    assert table.amounts == (11_000, 11_000, 8_000) and table.seats == 2 and table.paid_places == 3
    groups = [RankGroup(1, ("a", "b")), RankGroup(3, ("c",)), RankGroup(4, ("d",))]
    assert table.seat_winners(groups) == ("a", "b")
    assert table.cash_by_player(groups) == {"a": 0, "b": 0, "c": 8_000, "d": 0}


def test_p3_4_a_pool_below_one_seat_pays_its_winner_in_cash() -> None:
    table = PrizeTable.of_satellite(pool_cents=9_000, seat_price_cents=SEAT.total_cents)
    assert table.seats == 0 and table.amounts == (9_000,)
    assert table.seat_winners([RankGroup(1, ("a",))]) == ()


def test_p3_4_p2_4_a_tie_across_the_last_seat_shares_its_value_in_cash() -> None:
    """A seat cannot be split: players tied over positions 2–3 (a seat and the 80.00 remainder) share
    110.00 + 80.00 equally in cash; players tied wholly within the seats each win one."""
    table = PrizeTable.of_satellite(pool_cents=30_000, seat_price_cents=SEAT.total_cents)
    assert table.group_shares(RankGroup(2, ("b", "c"))) == ((9_500, 9_500), False)
    assert table.group_shares(RankGroup(1, ("a", "b"))) == ((0, 0), True)
    odd = PrizeTable.of_satellite(pool_cents=30_001, seat_price_cents=SEAT.total_cents)
    assert odd.group_shares(RankGroup(2, ("b", "c"))) == ((9_501, 9_500), False)


@pytest.mark.parametrize("amounts", [(11_000, 11_000, 8_000), (11_000,), (333, 333, 333, 1), (0,)])
def test_p3_4_p10_a_satellites_seats_as_a_schedule_sum_to_100_percent_best_first(amounts: tuple[int, ...]) -> None:
    schedule = schedule_from_amounts(amounts)
    assert sum(schedule.shares_bps) == 10_000
    assert list(schedule.shares_bps) == sorted(schedule.shares_bps, reverse=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_p3_4_a_satellite_ends_when_no_more_players_are_left_than_seats(seed: int) -> None:
    """30 entries of 10+1 pool 300.00: two seats of 100+10 and 80.00 for 3rd. Play stops at two players."""
    report = simulate(SimulationOptions(players=30, seed=seed, buy_in=BUY_IN, satellite_seat=SEAT))
    assert all(report.checks.values()), report.checks
    seats = [ranked for ranked in report.ranking if ranked.seat]
    assert len(seats) == 2 and {ranked.position for ranked in seats} == {1}
    assert all(ranked.prize_cents == 0 for ranked in seats)
    [third] = [ranked for ranked in report.ranking if ranked.position == 3]
    assert third.prize_cents == 8_000 and not third.seat
    assert sum(ranked.prize_cents for ranked in report.ranking) == 8_000


def test_p3_4_p10_a_running_satellite_cancelled_gives_back_every_cent_in_cash() -> None:
    options = SimulationOptions(players=30, seed=4, buy_in=BUY_IN, satellite_seat=SEAT)
    definition = simulation_definition(options)
    players = [f"p{n}" for n in range(30)]
    now = datetime(2025, 1, 1, tzinfo=UTC)
    run, _ = TournamentRun.start("sat", definition, players, random.Random(1), now, currency="EUR")
    cancellation = run.cancel(now, "technical")
    settlement = cancellation.settlement
    assert settlement.prize_money_paid_cents == 30 * BUY_IN.prize_part_cents
    assert sum(settlement.total_for(player) for player in players) == 30 * BUY_IN.total_cents


def test_p3_4_a_player_out_in_the_last_hand_can_still_win_a_seat() -> None:
    """Two seats, three players left, two of them out in one hand: the better of the two ranks 2nd and wins a
    seat (announced with `seat`), the other is 3rd with the cash remainder."""
    table = PrizeTable.of_satellite(pool_cents=30_000, seat_price_cents=SEAT.total_cents)
    assert table.group_shares(RankGroup(2, ("b",))) == ((0,), True)
    assert table.group_shares(RankGroup(3, ("c",))) == ((8_000,), False)
