"""The e2e checks themselves, on hand-made facts: each must pass on a correct record and catch the fault it
exists for (a check that cannot fail proves nothing). Fast; no server needed."""

from __future__ import annotations

from dataclasses import replace

from harness.broker import Binding, QueueState
from harness.definitions import chips_issued, rebuy_tournament, sit_and_go
from harness.invariants.chips import HandChips, hand_problems, tournament_chip_problems
from harness.invariants.draws import draw_problems, minor_units
from harness.invariants.ledger import reconciliation_problems
from harness.invariants.messaging import OutboxRow, delivery_problems, durable_patterns
from harness.invariants.prizes import EscrowLine, TournamentMoney, prize_problems, ranking_problems
from harness.invariants.ratings import rating_problems
from harness.money_state import MoneyState, disagreements
from hypothesis import given
from hypothesis import strategies as st

SNG = sit_and_go(6)
MTT = rebuy_tournament(12, 8)


def finished_sit_and_go(prizes: tuple[int, int] = (2340, 1260)) -> TournamentMoney:
    players = [f"p{i}" for i in range(9)]
    lines = [EscrowLine(i + 1, "buy_in", player, 400) for i, player in enumerate(players)]
    lines += [EscrowLine(99, "prize_payout", "p0", -prizes[0]), EscrowLine(99, "prize_payout", "p1", -prizes[1])]
    return TournamentMoney(
        tournament_id="t-sng",
        definition=SNG,
        status="finished",
        escrow_balance=0,
        lines=tuple(lines),
        positions={player: i + 1 for i, player in enumerate(players)},
        reported_prizes={"p0": prizes[0], "p1": prizes[1]},
        applied_purchases=0,
        purchased_chips=0,
        tax_base_cents=9 * 500,
        tax_base_entries=9,
    )


def test_p8_4_p8_5_sit_and_go_paid_65_35_once_passes() -> None:
    money = finished_sit_and_go()
    assert prize_problems(money) == []
    assert ranking_problems(money.tournament_id, set(money.positions), money.positions) == []


def test_p8_5_a_cent_moved_between_positions_is_caught() -> None:
    assert any("position 1" in p for p in prize_problems(finished_sit_and_go((2339, 1261))))


def test_p8_2_a_second_payout_operation_or_money_left_in_escrow_is_caught() -> None:
    money = finished_sit_and_go()
    twice = replace(money, lines=(*money.lines, EscrowLine(100, "prize_payout", "p0", -1)))
    assert any("2 prize payout operations" in p for p in prize_problems(twice))
    assert any("escrow holds 5" in p for p in prize_problems(replace(money, escrow_balance=5)))


def test_p4_2_p4_3_purchases_beyond_the_limits_and_p8_7_a_short_tax_base_are_caught() -> None:
    """The rebuy tournament allows 2 rebuys and 1 add-on a player; p3 pays 2 rebuys and 2 add-ons."""
    players = [f"p{i}" for i in range(12)]
    lines = [EscrowLine(i, "buy_in", player, 400) for i, player in enumerate(players)]
    lines += [EscrowLine(50 + i, kind, "p3", 400) for i, kind in enumerate(("rebuy", "rebuy", "add_on", "add_on"))]
    pool = 16 * 400
    lines += [
        EscrowLine(99, "prize_payout", p, -a)
        for p, a in zip(players, (pool // 2, pool * 3 // 10, pool // 5), strict=False)
    ]
    positions = {p: i + 1 for i, p in enumerate(players)}
    money = TournamentMoney("t-mtt", MTT, "finished", 0, tuple(lines), positions, {}, 4, 4000, 16 * 500, 15)
    problems = prize_problems(money)
    assert any("p3 kept 4 rebuys and add-ons, more than the 3 allowed" in p for p in problems)
    assert any("tax base" in p for p in problems)


def test_p4_4_a_purchase_paid_too_late_is_refunded_and_leaves_the_pool() -> None:
    """A rebuy confirmed by the wallet after its offer lapsed is given back: the pool is what the escrow kept."""
    players = [f"p{i}" for i in range(10)]
    lines = [EscrowLine(i, "buy_in", player, 400) for i, player in enumerate(players)]
    lines += [EscrowLine(50, "rebuy", "p3", 400), EscrowLine(51, "refund", "p3", -400)]
    pool = 10 * 400
    lines += [EscrowLine(99, "prize_payout", p, -a) for p, a in zip(players, (2000, 1200, 800), strict=False)]
    positions = {p: i + 1 for i, p in enumerate(players)}
    prizes = {"p0": 2000, "p1": 1200, "p2": 800}
    money = TournamentMoney("t", MTT, "finished", 0, tuple(lines), positions, prizes, 0, 0, 11 * 500, 11)
    assert money.pool == pool
    assert prize_problems(money) == []
    assert any("director applied 1" in p for p in prize_problems(replace(money, applied_purchases=1)))


def test_p2_4_tied_players_share_their_positions_prizes() -> None:
    money = finished_sit_and_go()
    tied = replace(
        money,
        positions={**money.positions, "p0": 1, "p1": 1},
        lines=(
            *money.lines[:9],
            EscrowLine(99, "prize_payout", "p0", -1800),
            EscrowLine(99, "prize_payout", "p1", -1800),
        ),
        reported_prizes={"p0": 1800, "p1": 1800},
    )
    assert prize_problems(tied) == []
    assert ranking_problems(tied.tournament_id, set(tied.positions), {**tied.positions, "p2": 2}) != []


def test_p2_1_a_player_ranked_twice_or_not_at_all_is_caught() -> None:
    positions = {"a": 1, "b": 3, "c": 3}
    assert ranking_problems("t", {"a", "b", "c", "d"}, positions)


@given(st.integers(min_value=2, max_value=9).flatmap(lambda n: st.permutations([f"p{i}" for i in range(n)])))
def test_p2_1_any_elimination_order_ranks_everyone_once(order: list[str]) -> None:
    positions = {player: position for position, player in enumerate(order, start=1)}
    assert ranking_problems("t", set(order), positions) == []
    assert ranking_problems("t", set(order), {**positions, order[0]: len(order) + 1}) != []


def test_p10_chips_conserved_per_hand_and_a_voided_hand_restored() -> None:
    good = HandChips("h1", "t1", "completed", {1: 500, 2: 500}, {1: 1000, 2: 0})
    voided = HandChips("h2", "t1", "voided", {1: 700, 2: 300}, {1: 700, 2: 300})
    assert hand_problems([good, voided]) == []
    leaking = HandChips("h3", "t1", "completed", {1: 500, 2: 500}, {1: 990, 2: 0})
    half_voided = HandChips("h4", "t1", "voided", {1: 700, 2: 300}, {1: 1000, 2: 0})
    assert len(hand_problems([leaking, half_voided])) == 2


def test_p4_the_winner_holds_every_chip_issued_rebuys_and_addons_included() -> None:
    issued = chips_issued(MTT, entrants=12, purchased_chips=8 * 1000)
    assert issued == 20 * 1000
    final = HandChips("h9", "t1", "completed", {1: issued - 100, 4: 100}, {1: issued, 4: 0})
    assert tournament_chip_problems("t", issued, final) == []
    assert tournament_chip_problems("t", issued + 1000, final)


def test_no_event_lost_every_bound_queue_applied_every_published_message() -> None:
    bindings = [
        Binding("platform.events", "rating", "tournament.tournament.finished"),
        Binding("platform.events", "gateway.instance.abc", "tournament.#"),
        Binding("platform.dead-letter", "rating.dead", "rating"),
    ]
    patterns = durable_patterns(bindings, ["rating", "rating.dead"])
    outbox = [OutboxRow("tournament-director", "m1", "tournament.tournament.finished", True)]
    queues = [QueueState("rating", 0, 1), QueueState("rating.dead", 0, 0)]
    assert delivery_problems(outbox, {"rating": {"m1"}}, patterns, queues) == []
    problems = delivery_problems(
        [*outbox, OutboxRow("wallet", "m2", "wallet.x", False)],
        {"rating": set()},
        patterns,
        [QueueState("rating", 3, 1), QueueState("rating.dead", 1, 0)],
    )
    assert len(problems) == 4  # unpublished, not applied, waiting, dead-lettered


def test_ledger_sums_to_zero_per_currency() -> None:
    balanced = {"ok": True, "currencies": [{"currency": "EUR", "sum_of_balances": 0, "drifts": []}]}
    assert reconciliation_problems(balanced) == []
    broken = {"ok": False, "currencies": [{"currency": "EUR", "sum_of_balances": -1, "drifts": []}]}
    assert reconciliation_problems(broken) == ["ledger: the EUR balances sum to -1, not 0"]


def test_p11_1_every_ranked_player_rated_once_at_their_position_and_pool() -> None:
    histories = {"a": [{"tournament_id": "t", "position": 1, "pool_cents": 3600}], "b": []}
    assert rating_problems("t", {"a": 1}, 3600, histories) == []
    assert len(rating_problems("t", {"a": 2, "b": 1}, 3600, histories)) == 2


def test_t6_each_winning_coupon_paid_once_and_as_settled() -> None:
    draw = {"draw_id": "d", "status": "settled", "transfers": {"pending": 0, "done": 2, "refused": 0}}
    report = {"payouts": [{"coupon_id": "c1", "currency": "EUR", "amount": "1.23"}]}
    transfers = [{"kind": "payout", "coupon_id": "c1", "amount": 123, "player_id": "p"}]
    coupons = [{"coupon_id": "c1", "status": "accepted", "wallet_operation_id": 7}]
    pools = [{"owner": "d", "currency": "EUR", "balance": 0, "held": 0}]
    assert minor_units("1.23", 2) == 123
    assert draw_problems(draw, transfers, report, pools, coupons, {"EUR": 2}, {"p": 123}) == []
    twice = [*transfers, transfers[0]]
    problems = draw_problems(draw, twice, report, pools, coupons, {"EUR": 2}, {"p": 123})
    assert any("paid 2 times" in p for p in problems)
    assert any("the ledger paid" in p for p in problems)


def test_same_seed_runs_disagree_only_where_the_rules_fix_money() -> None:
    state = MoneyState({"EUR": 0}, (9000, 10450), "17.35", (0, 1450), "3.10", 3600, (2340, 1260), 15200, {"buy_in": 30})
    other_cards = replace(state, scheduled_pool=16000, scheduled_entries={"buy_in": 30, "rebuy": 2})
    assert disagreements(state, other_cards) == []
    assert disagreements(state, replace(state, bettor_balances=(9000, 10449))) != []
