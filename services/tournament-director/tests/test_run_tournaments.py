"""TournamentRun driven through whole small tournaments on the real rules engine, with bots (the simulator),
checking what each kind of tournament must look like from start to finish (P-2, P-4, P-6, P-7, P-8)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from platform_kit.events.table import AddChips, StartHand
from platform_kit.events.tournament import (
    AddonOffered,
    FinalTableStarted,
    HandForHandChanged,
    LevelChanged,
    PlayerEliminated,
    PlayerMoved,
    ShootoutPhaseStarted,
    TableHeld,
    TournamentFinished,
)
from tournament_director.domain.entries import Price
from tournament_director.domain.kinds import TableMode, TournamentKind
from tournament_director.domain.payouts import SEED_TABLE, SIXTY_FIVE_THIRTY_FIVE, WINNER_TAKES_ALL, payout_amounts
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.simulation import SimulationOptions, SimulationReport, simulate

REBUY_PRICE = Price(prize_part_cents=2_250, fee_cents=250)


def _play(options: SimulationOptions) -> tuple[SimulationReport, list[Message]]:
    messages: list[Message] = []
    report = simulate(options, messages.append)
    return report, messages


def of_type(messages: Sequence[Message], kind: type) -> list:
    return [message for message in messages if isinstance(message, kind)]


def test_p2_1_p8_4_sit_and_go_of_nine_ranks_by_elimination_order_and_pays_65_35() -> None:
    report, messages = _play(SimulationOptions(players=9, seed=11, kind=TournamentKind.SIT_AND_GO))
    eliminated = of_type(messages, PlayerEliminated)
    # P-2.1: the later a player busts, the better the position (P-2.2 orders busts of one hand).
    by_hand: dict[str | None, list[int]] = {}
    for message in eliminated:
        by_hand.setdefault(message.hand_id, []).append(message.position)
    hands = list(by_hand.values())
    assert all(min(earlier) > max(later) for earlier, later in pairwise(hands))
    assert sorted(message.position for message in eliminated) == list(range(2, 10))
    (finished,) = of_type(messages, TournamentFinished)
    assert {(r.player_id, r.position) for r in finished.ranking[1:]} == {(m.player_id, m.position) for m in eliminated}
    assert report.payouts_cents == payout_amounts(9 * 9_000, SIXTY_FIVE_THIRTY_FIVE)
    assert of_type(messages, PlayerMoved) == []  # one table: nobody ever moves


def test_p8_4_heads_up_sit_and_go_winner_takes_all() -> None:
    report, messages = _play(SimulationOptions(players=2, seed=5, kind=TournamentKind.SIT_AND_GO))
    (eliminated,) = of_type(messages, PlayerEliminated)
    assert eliminated.position == 2 and eliminated.prize_cents == 0
    assert report.payouts_cents == payout_amounts(2 * 9_000, WINNER_TAKES_ALL) == (18_000,)
    assert report.ranking[0].prize_cents == 18_000 and report.hands_played >= 1


def test_p4_p7_scheduled_thirty_with_rebuys_and_an_addon() -> None:
    options = SimulationOptions(players=30, seed=2, buy_in=REBUY_PRICE, rebuys=True)
    report, messages = _play(options)
    level, rebuy_levels, addon_levels = (1, False), set(), set()
    for message in messages:
        if isinstance(message, LevelChanged):
            level = (message.level_no, message.on_break)
        elif isinstance(message, OfferRebuy):
            rebuy_levels.add(level)
        elif isinstance(message, AddonOffered):
            addon_levels.add(level)
    # P-4.2: rebuys only for hands of levels 1..6 (a hand can end on the clock's next level or break).
    assert rebuy_levels and max(rebuy_levels) <= (7, False)
    # P-4.3, P-7.2: add-ons only at the break after level 6.
    assert addon_levels == {(6, True)}
    purchases = of_type(messages, AddChips)
    assert {purchase.reason for purchase in purchases} == {"rebuy", "addon"}
    # P-4.4, P-8.2: every buy-in, rebuy and add-on puts its prize part in the pool.
    assert report.entries == 30 + len(purchases)
    assert report.prize_pool_cents == report.entries * REBUY_PRICE.prize_part_cents
    ten_to_thirty = SEED_TABLE[0][2]
    assert report.payouts_cents == payout_amounts(report.prize_pool_cents, ten_to_thirty)
    assert all(report.checks.values())


def test_p6_4_shootout_of_eighteen_plays_each_table_down_without_merging_then_regroups() -> None:
    report, messages = _play(
        SimulationOptions(players=18, seed=4, kind=TournamentKind.SIT_AND_GO, mode=TableMode.SHOOTOUT)
    )
    regroup = next(index for index, message in enumerate(messages) if isinstance(message, PlayerMoved))
    first_phase, later = messages[:regroup], messages[regroup:]
    # P-6.4: no merge and no balancing during a phase; the winners are regrouped when every table is done.
    assert {move.reason for move in of_type(messages, PlayerMoved)} == {"shootout_regroup"}
    assert of_type(first_phase, PlayerEliminated) and not of_type(first_phase, ShootoutPhaseStarted)
    assert len(of_type(first_phase, TableHeld)) == 1  # the first table down to its winner waits
    assert of_type(later, ShootoutPhaseStarted)[0].phase == 2 and of_type(later, FinalTableStarted)
    # A held table deals no more hands in its phase.
    held = of_type(first_phase, TableHeld)[0].table_id
    held_at = next(i for i, message in enumerate(first_phase) if isinstance(message, TableHeld))
    assert all(start.table_id != held for start in of_type(first_phase[held_at:], StartHand))
    assert report.max_table_size_gap is None and all(report.checks.values())


def test_p6_1_p6_3_p6_5_a_multi_table_field_balances_merges_and_ends_at_one_table() -> None:
    report, messages = _play(SimulationOptions(players=120, seed=9))
    assert report.max_table_size_gap == 1  # P-6.3, checked after every table round
    assert {move.reason for move in of_type(messages, PlayerMoved)} <= {"table_broken", "balancing"}
    assert len(of_type(messages, FinalTableStarted)) == 1  # P-6.5
    assert report.prize_pool_cents == 120 * 9_000


def test_p6_4_a_large_shootout_regroups_its_winners_onto_several_fresh_tables() -> None:
    report, messages = _play(SimulationOptions(players=98, seed=24, mode=TableMode.SHOOTOUT))
    phases = of_type(messages, ShootoutPhaseStarted)
    assert [phase.phase for phase in phases] == list(range(2, len(phases) + 2))
    assert len(phases[0].tables) > 1  # 11 table winners of phase 1 need two tables of nine
    assert all(table.startswith("sim-24.2.") for table in phases[0].tables)
    assert all(report.checks.values())


def test_p6_6_p2_4_the_bubble_is_played_hand_for_hand() -> None:
    report, messages = _play(SimulationOptions(players=300, seed=1))
    switches = [index for index, message in enumerate(messages) if isinstance(message, HandForHandChanged)]
    on, off = (messages[index] for index in switches)
    assert (on, off) == (
        HandForHandChanged(tournament_id="sim-1", on=True),
        HandForHandChanged(tournament_id="sim-1", on=False),
    )
    during = messages[switches[0] : switches[1]]
    # 300 entrants, 30 paid places: hand-for-hand from 31 players left. Every table deals its round's hand at once…
    starts = of_type(during, StartHand)
    assert len({start.table_id for start in starts}) == len(starts) > 1
    # …and the round's busts are announced together once its last hand is in, best first (P-2.2, P-2.4).
    eliminated = of_type(during, PlayerEliminated)
    assert [message.position for message in eliminated] == [29, 30, 31]
    first = messages.index(eliminated[0])
    assert messages[first : first + 3] == eliminated
    assert [message.prize_cents > 0 for message in eliminated] == [True, True, False]
    assert all(report.checks.values())


def test_p2_5_a_shootout_shares_a_part_of_the_pool_among_its_first_phase_table_winners() -> None:
    """36 players on four tables of nine (P-6.4 shoot-out), 90+10: the pool of 3,240.00 gives 40% (1,296.00) in
    equal parts to the four table winners, the rest by the seed table for 36 entrants."""
    options = SimulationOptions(players=36, seed=3, mode=TableMode.SHOOTOUT, table_winners_bps=4_000)
    report, messages = _play(options)
    assert all(report.checks.values()), report.checks
    (phase,) = [m for m in of_type(messages, ShootoutPhaseStarted) if m.phase == 2]
    assert len(phase.tables) == 1  # the four table winners meet at the final table: they finish 1st to 4th
    winners = {ranked.player_id for ranked in report.ranking if ranked.position <= 4}
    assert len(winners) == 4
    positions = payout_amounts(324_000 - 129_600, next(s for lo, hi, s in SEED_TABLE if lo <= 36 <= hi))
    (finished,) = of_type(messages, TournamentFinished)
    for ranked in finished.ranking:
        by_position = positions[ranked.position - 1] if ranked.position <= len(positions) else 0
        assert ranked.prize_cents == by_position + (32_400 if ranked.player_id in winners else 0)
    assert sum(ranked.prize_cents for ranked in finished.ranking) == 324_000


def test_p2_5_a_single_table_shootout_pays_its_table_part_to_the_winner() -> None:
    options = SimulationOptions(
        players=9, seed=2, kind=TournamentKind.SIT_AND_GO, mode=TableMode.SHOOTOUT, table_winners_bps=10_000
    )
    report, _ = _play(options)
    assert [ranked.prize_cents for ranked in report.ranking] == [81_000] + [0] * 8
