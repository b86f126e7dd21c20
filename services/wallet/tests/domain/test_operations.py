"""The money operations as legs: who pays whom, and that every operation sums to zero."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from wallet.domain import operations as ops
from wallet.domain.accounts import AccountKey, AccountKind
from wallet.domain.errors import (
    CurrencyMismatch,
    DuplicatePlayer,
    InvalidAmount,
    JackpotNotFromFee,
    PrizePartTooSmall,
)
from wallet.domain.ledger import net_changes
from wallet.domain.operations import EntryRefund, Leg, OperationKind

PLAYER = AccountKey.player("p1", "EUR")
ESCROW = AccountKey.escrow("t1", "EUR")
MARGIN = AccountKey.of_concessionaire(AccountKind.MARGIN, "c1", "EUR")
JACKPOT = AccountKey.of_concessionaire(AccountKind.JACKPOT_FUND, "c1", "EUR")
SPONSOR = AccountKey.of_concessionaire(AccountKind.SPONSORSHIP, "c1", "EUR")


def entry(prize_part: int, fee: int, jackpot: int = 0, kind: OperationKind = OperationKind.BUY_IN) -> ops.Operation:
    return ops.paid_entry(
        kind,
        player_id="p1",
        concessionaire_id="c1",
        tournament_id="t1",
        currency="EUR",
        prize_part=prize_part,
        fee=fee,
        jackpot_contribution=jackpot,
    )


@pytest.mark.parametrize("kind", [OperationKind.BUY_IN, OperationKind.REBUY, OperationKind.ADD_ON])
def test_p8_1_p4_4_entry_splits_prize_part_to_escrow_and_fee_to_margin(kind: OperationKind) -> None:
    operation = entry(900, 100, kind=kind)
    assert net_changes(operation.legs) == {PLAYER: -1000, ESCROW: 900, MARGIN: 100}
    assert operation.kind is kind


def test_p8_7_entry_records_full_price_as_tax_base() -> None:
    base = entry(900, 100).tax_base
    assert base is not None and (base.tournament_id, base.concessionaire_id, base.amount) == ("t1", "c1", 1000)


def test_p8_1_prize_part_below_80_percent_is_refused() -> None:
    entry(80, 20)  # exactly 80% is allowed
    with pytest.raises(PrizePartTooSmall):
        entry(79, 21)


def test_p8_1_zero_fee_entry_is_one_transfer() -> None:
    assert entry(500, 0).legs == (Leg(PLAYER, ESCROW, 500, "prize_part"),)


def test_p8_6_jackpot_contribution_comes_out_of_the_fee_not_the_prize_part() -> None:
    assert net_changes(entry(900, 100, jackpot=30).legs) == {PLAYER: -1000, ESCROW: 900, MARGIN: 70, JACKPOT: 30}
    with pytest.raises(JackpotNotFromFee):
        entry(900, 100, jackpot=101)


def test_p3_4_satellite_entry_is_paid_from_the_satellite_escrow_and_counts_as_a_buy_in() -> None:
    operation = ops.satellite_entry(
        player_id="p1",
        concessionaire_id="c1",
        tournament_id="t1",
        satellite_id="sat",
        currency="EUR",
        prize_part=900,
        fee=100,
    )
    assert net_changes(operation.legs) == {AccountKey.escrow("sat", "EUR"): -1000, ESCROW: 900, MARGIN: 100}
    assert operation.tax_base is not None and operation.tax_base.amount == 1000


def test_p9_2_sponsored_freeroll_entry_forms_the_prize_pool_and_is_taxed() -> None:
    operation = ops.sponsored_entry(
        player_id="p1", concessionaire_id="c1", tournament_id="t1", currency="EUR", amount=50
    )
    assert net_changes(operation.legs) == {SPONSOR: -50, ESCROW: 50}
    assert operation.tax_base is not None and operation.tax_base.amount == 50


def test_p8_7_p9_2_a_sponsored_entry_is_taxed_whole_though_only_its_prize_part_moves() -> None:
    """A 0.40 + 0.10 entry: 0.40 into the escrow, 0.50 into the tax base."""
    operation = ops.sponsored_entry(
        player_id="p1", concessionaire_id="c1", tournament_id="t1", currency="EUR", amount=40, fee=10
    )
    assert net_changes(operation.legs) == {SPONSOR: -40, ESCROW: 40}
    assert operation.tax_base is not None and operation.tax_base.amount == 50


def test_p8_3_guarantee_overlay_comes_from_the_concessionaire() -> None:
    operation = ops.overlay(
        OperationKind.GUARANTEE_OVERLAY, concessionaire_id="c1", tournament_id="t1", currency="EUR", amount=2500
    )
    assert net_changes(operation.legs) == {SPONSOR: -2500, ESCROW: 2500}
    assert operation.tax_base is None


def test_p10_10_refund_returns_the_full_price_with_the_fee_from_the_margin() -> None:
    operation = ops.refunds(
        tournament_id="t1", currency="EUR", items=[EntryRefund("p1", "c1", 900, 100), EntryRefund("p2", "c2", 900, 100)]
    )
    assert net_changes(operation.legs) == {
        ESCROW: -1800,
        MARGIN: -100,
        AccountKey.of_concessionaire(AccountKind.MARGIN, "c2", "EUR"): -100,
        PLAYER: 1000,
        AccountKey.player("p2", "EUR"): 1000,
    }


def test_p8_4_payouts_are_one_operation_from_the_escrow() -> None:
    operation = ops.prize_payouts(tournament_id="t1", currency="EUR", payouts=[("p1", 700), ("p2", 300), ("p3", 0)])
    assert net_changes(operation.legs) == {ESCROW: -1000, PLAYER: 700, AccountKey.player("p2", "EUR"): 300}


def bonus_prizes(prizes: list[tuple[str, int]]) -> ops.Operation:
    return ops.bonus_prizes(concessionaire_id="c1", tournament_id="free", currency="EUR", prizes=prizes)


def test_p9_3_bonus_prizes_are_one_operation_from_the_sponsorship_to_the_bonus_accounts() -> None:
    operation = bonus_prizes([("p1", 700), ("p2", 300)])
    assert net_changes(operation.legs) == {
        SPONSOR: -1000,
        AccountKey.bonus("p1", "EUR"): 700,
        AccountKey.bonus("p2", "EUR"): 300,
    }
    assert (operation.kind, operation.tournament_id, operation.concessionaire_id) == (
        OperationKind.BONUS_PRIZES,
        "free",
        "c1",
    )
    assert operation.tax_base is None  # no cash prize pool, nothing taxable (P-9.2 is for cash freerolls)
    assert PLAYER not in operation.accounts  # the players' cash is not touched


def test_p9_3_bonus_money_is_the_players_but_never_negative_and_apart_from_its_cash() -> None:
    assert AccountKind.BONUS.owned_by_player and not AccountKind.BONUS.owned_by_concessionaire
    assert not AccountKind.BONUS.may_go_negative
    withdrawal = ops.withdrawal("p1", "c1", "EUR", 100, None)
    assert net_changes(withdrawal.legs) == {
        PLAYER: -100,
        AccountKey.of_concessionaire(AccountKind.CASH, "c1", "EUR"): 100,
    }


@pytest.mark.parametrize(
    ("prizes", "refusal"),
    [
        ([], InvalidAmount),
        ([("p1", 0)], InvalidAmount),
        ([("p1", 10), ("p2", -1)], InvalidAmount),
        ([("p1", 10), ("p2", 20), ("p1", 30)], DuplicatePlayer),
    ],
)
def test_p9_3_bonus_prizes_are_positive_one_per_player(prizes: list[tuple[str, int]], refusal: type[Exception]) -> None:
    with pytest.raises(refusal):
        bonus_prizes(prizes)


@pytest.mark.parametrize(
    ("kind", "pool_change", "other"),
    [
        (OperationKind.ORGANIZER_SHARE, -5, AccountKind.NETWORK),  # T-1.1
        (OperationKind.ROUNDING_REMAINDER, -5, AccountKind.NETWORK),  # T-6.3
        (OperationKind.ORGANIZER_TOP_UP, 5, AccountKind.NETWORK),  # T-6.2
        (OperationKind.JACKPOT_CARRY, -5, AccountKind.TOTALIZATOR_JACKPOT),  # T-3.2
        (OperationKind.JACKPOT_RELEASE, 5, AccountKind.TOTALIZATOR_JACKPOT),  # T-4
    ],
)
def test_t6_2_t6_3_organizer_transfers_move_between_pool_and_network(
    kind: OperationKind, pool_change: int, other: AccountKind
) -> None:
    operation = ops.organizer_transfer(kind, draw_id="d1", currency="USD", amount=5)
    assert net_changes(operation.legs) == {
        AccountKey.pool("d1", "USD"): pool_change,
        AccountKey.of_network(other, "USD"): -pool_change,
    }


def test_reversal_mirrors_every_leg_and_takes_back_the_tax_base() -> None:
    original = entry(900, 100)
    mirror = ops.reversal(original, 7, "booked twice")
    assert net_changes(mirror.legs) == {key: -change for key, change in net_changes(original.legs).items()}
    assert mirror.reverses == 7 and mirror.tax_base is not None and mirror.tax_base.amount == -1000


@pytest.mark.parametrize("amount", [0, -1, True, 1.5, "100"])
def test_amounts_are_positive_integers_of_minor_units(amount: object) -> None:
    with pytest.raises(InvalidAmount):
        ops.deposit("p1", "c1", "EUR", amount, None)  # type: ignore[arg-type]


def test_an_operation_has_one_currency() -> None:
    with pytest.raises(CurrencyMismatch):
        ops.Operation(OperationKind.DEPOSIT, "EUR", (Leg(AccountKey.player("p1", "USD"), PLAYER, 5, "x"),))


def test_every_account_kind_has_an_overdraft_policy_that_protects_players() -> None:
    assert not AccountKind.PLAYER.may_go_negative
    assert not AccountKind.TOURNAMENT_ESCROW.may_go_negative
    assert not AccountKind.DRAW_POOL.may_go_negative
    assert AccountKind.CASH.may_go_negative


amounts = st.integers(min_value=0, max_value=10**12)


@given(st.lists(st.tuples(amounts, amounts, st.integers(0, 100)), min_size=1, max_size=20))
def test_every_operation_sums_to_zero(entries: list[tuple[int, int, int]]) -> None:
    """Double entry: whatever the legs, credits equal debits, so the ledger always sums to zero."""
    legs: list[Leg] = []
    for prize_part, fee, percent in entries:
        if prize_part + fee == 0 or 5 * prize_part < 4 * (prize_part + fee):
            continue
        legs += entry(prize_part, fee, jackpot=fee * percent // 100).legs
    assert sum(net_changes(legs).values()) == 0
