"""Cancellation refunds (P-10.1–P-10.12): the worked examples of the module docstring, and properties."""

from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_director.domain.cancellation import (
    CancellationCase,
    CancellationError,
    CancellationSettlement,
    OverlayKind,
    RefundLine,
    RefundReason,
    refund_all_entries,
    settle_cancellation,
)
from tournament_director.domain.entries import Entry, EntryKind, PaymentForm, Price
from tournament_director.domain.kinds import TournamentKind
from tournament_director.domain.payouts import SIXTY_FIVE_THIRTY_FIVE, PayoutSchedule, default_schedule
from tournament_director.domain.ranking import RankGroup

SNG, SCHEDULED = TournamentKind.SIT_AND_GO, TournamentKind.SCHEDULED
WINNER = PayoutSchedule(shares_bps=(10_000,))
_RETURNS = (RefundReason.ENTRY_PRIZE_PART, RefundReason.ENTRY_FEE, RefundReason.ENTRY_TICKET)


def _entries(prize: int, fee: int, count: int = 1, form: PaymentForm = PaymentForm.CASH) -> list[Entry]:
    price = Price(prize_part_cents=prize, fee_cents=fee)
    return [Entry(EntryKind.BUY_IN, price, form)] + [Entry(EntryKind.REBUY, price, form)] * (count - 1)


def _sponsored() -> list[Entry]:
    return [Entry(EntryKind.SPONSORED, Price(prize_part_cents=40, fee_cents=10))]


def _out(players: Iterable[str], first_position: int) -> list[RankGroup]:
    return [RankGroup(first_position + index, (player,)) for index, player in enumerate(players)]


def _others(count: int) -> list[str]:
    return [f"x{index:02d}" for index in range(count)]


def _totals(settlement: CancellationSettlement, players: Iterable[str]) -> dict[str, int]:
    return {player: settlement.total_for(player) for player in players}


def _reasons(settlement: CancellationSettlement, player: str) -> dict[RefundReason, int]:
    return {line.reason: line.amount_cents for line in settlement.lines_for(player)}


def test_example_1_p10_1_heads_up_everything_back_in_the_form_paid() -> None:
    case = CancellationCase(
        SNG, 0, False, False, SIXTY_FIVE_THIRTY_FIVE,
        {"A": _entries(1000, 100), "B": _entries(1000, 100, form=PaymentForm.TICKET)},
        eliminated=[], chips={"A": 1200, "B": 1800},
    )  # fmt: skip
    settlement = settle_cancellation(case)
    assert settlement.rule == "P-10.1"
    assert settlement.lines == (
        RefundLine("A", RefundReason.ENTRY_PRIZE_PART, PaymentForm.CASH, 1000),
        RefundLine("A", RefundReason.ENTRY_FEE, PaymentForm.CASH, 0, 100),
        RefundLine("B", RefundReason.ENTRY_TICKET, PaymentForm.TICKET, 1000, 100, EntryKind.BUY_IN),
    )
    assert settlement.residual_prize_pool_cents == 0


SIX = {player: _entries(1000, 100) for player in "ABCDEF"}


def test_example_2_p10_5_sit_and_go_more_players_than_prizes() -> None:
    case = CancellationCase(
        SNG, 0, False, False, SIXTY_FIVE_THIRTY_FIVE, SIX, _out("DEF", 4), {"A": 4000, "B": 3000, "C": 2000}
    )
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.5", 3000)
    assert _totals(settlement, "ABCDEF") == {"A": 2100, "B": 2100, "C": 2100, "D": 0, "E": 0, "F": 0}
    assert _reasons(settlement, "A") == {
        RefundReason.ENTRY_PRIZE_PART: 1000,
        RefundReason.ENTRY_FEE: 100,
        RefundReason.EQUAL_SHARE: 1000,
    }
    assert settlement.prize_money_paid_cents == 6000


def test_example_3_p10_10_as_many_players_as_prizes_follows_the_fewer_rule() -> None:
    case = CancellationCase(SNG, 0, False, False, SIXTY_FIVE_THIRTY_FIVE, SIX, _out("CDEF", 3), {"A": 6000, "B": 3000})
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.6", 4000)
    assert _totals(settlement, "ABC") == {"A": 3100, "B": 3100, "C": 0}


def test_example_4_p10_3_p10_6_sit_and_go_with_guarantee_fewer_players_than_prizes() -> None:
    nine = {player: _entries(500, 50) for player in "ABCDEFGHI"}
    schedule = PayoutSchedule(shares_bps=(5000, 3000, 2000))
    case = CancellationCase(SNG, 10_000, False, False, schedule, nine, _out("CDEFGHI", 3), {"A": 9000, "B": 4500})
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.6", 9000)
    assert _totals(settlement, "ABCD") == {"A": 4050, "B": 4050, "C": 2000, "D": 0}
    assert settlement.overlay_cents(OverlayKind.GUARANTEE) == 5500
    assert settlement.prize_money_paid_cents == 10_000


TWENTY = {player: _entries(1000, 100) for player in [*"ABCD", *_others(16)]}


def test_example_5_p10_4_p10_7_scheduled_no_guarantee_more_players_than_prizes() -> None:
    chips = {"A": 30_000, "B": 20_000, "C": 6_000, "D": 4_000}
    case = CancellationCase(SCHEDULED, 0, False, False, default_schedule(20), TWENTY, _out(_others(16), 5), chips)
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.7", 16_000)
    assert _totals(settlement, "ABCD") == {"A": 7101, "B": 5766, "C": 3900, "D": 3633}
    assert _reasons(settlement, "A")[RefundReason.CHIP_SHARE] == 4001
    assert all(settlement.total_for(player) == 0 for player in _others(16))


def test_example_6_p10_3_p10_8_scheduled_with_guarantee_fewer_players_than_prizes() -> None:
    thirty = {player: _entries(1000, 100) for player in [*"ABC", *_others(27)]}
    case = CancellationCase(
        SCHEDULED, 50_000, False, False, default_schedule(30), thirty,
        _out(["C", *_others(27)], 3), {"A": 50_000, "B": 40_000},
    )  # fmt: skip
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.8", 48_000)
    assert _totals(settlement, "ABC") == {"A": 20_323, "B": 19_877, "C": 10_000}
    assert _reasons(settlement, "B") == {
        RefundReason.ENTRY_PRIZE_PART: 1000,
        RefundReason.ENTRY_FEE: 100,
        RefundReason.NEXT_ELIMINATION_PRIZE: 15_000,
        RefundReason.EQUAL_SHARE: 2000,
        RefundReason.CHIP_SHARE: 1777,
    }
    assert settlement.overlay_cents(OverlayKind.GUARANTEE) == 20_000


def _rebuy_case(prize: int, fee: int, entries_each: int) -> CancellationCase:
    entries = {"A": _entries(prize, fee, entries_each), "B": _entries(prize, fee, entries_each)}
    entries |= {player: _entries(prize, fee) for player in ["C", *_others(7)]}
    chips = {"A": 50_000, "B": 40_000}
    return CancellationCase(
        SCHEDULED, 0, False, True, default_schedule(10), entries, _out(["C", *_others(7)], 3), chips
    )


def test_example_7_p10_2_p10_11_rebuys_open_next_elimination_amounts_shrink() -> None:
    settlement = settle_cancellation(_rebuy_case(1000, 100, entries_each=5))
    assert (settlement.rule, settlement.residual_prize_pool_cents, settlement.capped_by_residual) == (
        "P-10.8",
        8000,
        True,
    )
    assert _totals(settlement, "ABC") == {"A": 7700, "B": 7700, "C": 3600}
    assert _reasons(settlement, "A")[RefundReason.NEXT_ELIMINATION_PRIZE] == 2200
    assert settlement.overlays == ()


def test_example_8_p10_11_cancellation_overlay_when_prizes_exceed_the_residual() -> None:
    settlement = settle_cancellation(_rebuy_case(500, 50, entries_each=17))
    assert settlement.residual_prize_pool_cents == 4000
    assert _totals(settlement, "ABC") == {"A": 9350, "B": 9350, "C": 4200}
    assert settlement.overlay_cents(OverlayKind.CANCELLATION) == 200


FREEROLL_TWENTY = {player: _sponsored() for player in [*"ABCD", *_others(16)]}


def test_example_9_p10_9_freeroll_more_players_than_prizes() -> None:
    chips = {"A": 30_000, "B": 20_000, "C": 6_000, "D": 4_000}
    case = CancellationCase(
        SCHEDULED, 10_000, True, False, default_schedule(20), FREEROLL_TWENTY, _out(_others(16), 5), chips
    )
    settlement = settle_cancellation(case)
    assert (settlement.rule, settlement.residual_prize_pool_cents) == ("P-10.9", 10_000)
    assert _totals(settlement, "ABCD") == {"A": 3751, "B": 2916, "C": 1750, "D": 1583}
    assert settlement.overlay_cents(OverlayKind.GUARANTEE) == 9200
    assert settlement.margin_returned_cents == 0


def test_example_10_p10_9_freeroll_fewer_players_than_prizes() -> None:
    entries = {player: _sponsored() for player in [*"ABC", *_others(17)]}
    case = CancellationCase(
        SCHEDULED, 10_000, True, False, default_schedule(20), entries,
        _out(["C", *_others(17)], 3), {"A": 40_000, "B": 20_000},
    )  # fmt: skip
    settlement = settle_cancellation(case)
    assert _totals(settlement, "ABC") == {"A": 4167, "B": 3833, "C": 2000}
    assert _reasons(settlement, "A") == {
        RefundReason.NEXT_ELIMINATION_PRIZE: 3000,
        RefundReason.EQUAL_SHARE: 500,
        RefundReason.CHIP_SHARE: 667,
    }


def test_p10_4_sit_and_go_without_guarantee_ignores_the_guarantee_branch() -> None:
    # Same as example 4 without the guarantee: R is only the eliminated prize parts, 7 × 500 = 3500.
    nine = {player: _entries(500, 50) for player in "ABCDEFGHI"}
    schedule = PayoutSchedule(shares_bps=(5000, 3000, 2000))
    case = CancellationCase(SNG, 0, False, False, schedule, nine, _out("CDEFGHI", 3), {"A": 9000, "B": 4500})
    settlement = settle_cancellation(case)
    # Prizes on the 4500 pool: 2250 / 1350 / 900. C gets 900; A and B share 3500 − 900 = 2600.
    assert _totals(settlement, "ABC") == {"A": 550 + 1300, "B": 550 + 1300, "C": 900}


def test_p10_2_guarantee_ignored_while_rebuys_are_open() -> None:
    case = CancellationCase(
        SNG, 50_000, False, True, SIXTY_FIVE_THIRTY_FIVE, SIX, _out("DEF", 4), {"A": 1, "B": 1, "C": 1}
    )
    settlement = settle_cancellation(case)
    assert settlement.residual_prize_pool_cents == 3000
    assert settlement.overlays == ()


def test_p10_12_tickets_come_back_as_fresh_tickets_one_per_entry() -> None:
    entries = {
        **SIX,
        "A": [
            *_entries(1000, 100),
            Entry(EntryKind.SATELLITE, Price(prize_part_cents=1000, fee_cents=100), PaymentForm.TICKET),
        ],
    }
    case = CancellationCase(
        SNG, 0, False, False, SIXTY_FIVE_THIRTY_FIVE, entries, _out("DEF", 4), {"A": 1, "B": 1, "C": 1}
    )
    tickets = [line for line in settle_cancellation(case).lines_for("A") if line.form is PaymentForm.TICKET]
    assert tickets == [RefundLine("A", RefundReason.ENTRY_TICKET, PaymentForm.TICKET, 1000, 100, EntryKind.SATELLITE)]


def test_p2_4_p10_6_tied_eliminated_players_share_their_prizes() -> None:
    nine = {player: _entries(1000, 100) for player in "ABCDEFGHI"}
    schedule = PayoutSchedule(shares_bps=(4000, 3000, 2000, 1000))
    eliminated = [RankGroup(3, ("C", "D")), *_out("EFGHI", 5)]
    case = CancellationCase(SNG, 0, False, False, schedule, nine, eliminated, {"A": 5, "B": 5})
    settlement = settle_cancellation(case)
    # Prizes on 9000: 3600 / 2700 / 1800 / 900; C and D share 1800 + 900 = 2700: 1350 each.
    assert _totals(settlement, "CD") == {"C": 1350, "D": 1350}


@pytest.mark.parametrize(
    ("eliminated", "chips", "entries"),
    [
        (_out("AB", 2), {"A": 5}, {}),  # A both in and out
        ([], {}, {}),  # nobody in
        (_out("B", 2), {"A": 0}, {}),  # no chips in play
        (_out("B", 2), {"A": 5}, {"Z": _entries(1000, 100)}),  # entries of a stranger
        (_out("B", 1), {"A": 5}, {}),  # eliminated above a player still in
        (_out("BC", 2), {"A": 5}, {"A": _sponsored()}),  # sponsored entry outside a freeroll
    ],
)
def test_inconsistent_cases_are_refused(
    eliminated: list[RankGroup], chips: dict[str, int], entries: dict[str, list[Entry]]
) -> None:
    with pytest.raises(CancellationError):
        settle_cancellation(CancellationCase(SNG, 0, False, False, WINNER, entries, eliminated, chips))


# P-10.10 invariant over random tournaments


@st.composite
def _cases(draw: st.DrawFn) -> CancellationCase:
    entrants = draw(st.integers(2, 40))
    players = [f"p{index:02d}" for index in range(entrants)]
    left = draw(st.integers(1, entrants - 1)) if entrants > 2 else 2
    freeroll = draw(st.booleans())
    prize = draw(st.integers(40, 9000))
    fee = draw(st.integers(0, prize // 4))
    entries: dict[str, Sequence[Entry]] = {}
    for player in players:
        if freeroll:
            entries[player] = [Entry(EntryKind.SPONSORED, Price(prize_part_cents=prize, fee_cents=fee))]
        else:
            forms = draw(st.lists(st.sampled_from(PaymentForm), min_size=1, max_size=4))
            price = Price(prize_part_cents=prize, fee_cents=fee)
            entries[player] = [
                Entry(EntryKind.BUY_IN if i == 0 else EntryKind.REBUY, price, form) for i, form in enumerate(forms)
            ]
    order = draw(st.permutations(players))
    still_in, out = order[:left], order[left:]
    shares = draw(st.lists(st.integers(1, 5000), min_size=1, max_size=entrants))
    shares.sort(reverse=True)
    schedule_bps = [share * 10_000 // sum(shares) for share in shares]
    schedule_bps[0] += 10_000 - sum(schedule_bps)
    schedule_bps = [share for share in schedule_bps if share > 0]
    return CancellationCase(
        kind=draw(st.sampled_from(TournamentKind)),
        guarantee_cents=draw(st.sampled_from([0, draw(st.integers(1, 500_000))])),
        freeroll=freeroll,
        rebuys_or_addons_open=draw(st.booleans()),
        schedule=PayoutSchedule(shares_bps=tuple(sorted(schedule_bps, reverse=True))),
        entries=entries,
        eliminated=_out(out, left + 1),
        chips={player: draw(st.integers(1, 100_000)) for player in still_in},
    )


@settings(max_examples=300, deadline=None)
@given(_cases())
def test_p10_10_not_a_cent_created_or_lost(case: CancellationCase) -> None:
    settlement = settle_cancellation(case)  # checks the invariant itself, and raises if it fails
    overlays = settlement.overlay_cents(OverlayKind.GUARANTEE) + settlement.overlay_cents(OverlayKind.CANCELLATION)
    collected = sum(entry.price.prize_part_cents for entries in case.entries.values() for entry in entries)
    assert settlement.prize_money_paid_cents == collected + overlays
    assert all(line.prize_money_cents >= 0 and line.margin_cents >= 0 for line in settlement.lines)
    if not case.freeroll:
        # P-10.10: what a player still in paid is always returned in full, fees from the margin.
        for player in case.chips:
            returned = [line for line in settlement.lines_for(player) if line.reason in _RETURNS]
            assert sum(line.amount_cents for line in returned) == sum(e.price.total_cents for e in case.entries[player])
            tickets = sum(1 for entry in case.entries[player] if entry.form is PaymentForm.TICKET)
            assert sum(1 for line in returned if line.form is PaymentForm.TICKET) == tickets


def test_p3_2_below_the_minimum_every_entry_is_refunded_in_full() -> None:
    entries = {"B": _entries(1000, 100, count=2), "A": _entries(500, 50, form=PaymentForm.TICKET)}
    assert refund_all_entries(entries) == (
        RefundLine("A", RefundReason.ENTRY_TICKET, PaymentForm.TICKET, 500, 50, EntryKind.BUY_IN),
        RefundLine("B", RefundReason.ENTRY_PRIZE_PART, PaymentForm.CASH, 2000),
        RefundLine("B", RefundReason.ENTRY_FEE, PaymentForm.CASH, 0, 200),
    )
