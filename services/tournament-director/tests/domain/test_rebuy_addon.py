"""Rebuy and add-on eligibility (P-4.1–P-4.3, P-7.2) and the P-10.2/P-10.3 switch."""

from datetime import UTC, datetime, timedelta

import pytest
from tournament_director.domain.blind_clock import BlindClock, ClockReading
from tournament_director.domain.definition import TournamentDefinition, revise
from tournament_director.domain.entries import Price
from tournament_director.domain.kinds import RebuyEligibility
from tournament_director.domain.rebuy_addon import (
    PlayerPurchases,
    PurchaseRefusal,
    addon_refusal,
    rebuy_refusal,
    rebuys_or_addons_still_possible,
)
from tournament_director.domain.templates import rebuy_mtt, scheduled_mtt

START = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
# Ten-minute levels, break after level 6 (5 min): rebuys during levels 1–6, add-on at that break.
REBUY_MTT = rebuy_mtt("Rebuy", Price(prize_part_cents=900, fee_cents=100), max_rebuys=2, rebuy_period_levels=6)
STACK = REBUY_MTT.starting_stack
NONE_BOUGHT = PlayerPurchases()


def _clock(minutes: int, definition: TournamentDefinition = REBUY_MTT) -> ClockReading:
    return BlindClock(definition.blinds, START).reading_at(START + timedelta(minutes=minutes))


LEVEL_3 = _clock(25)
BREAK_AFTER_6 = _clock(62)
LEVEL_7 = _clock(66)


def test_p4_2_busted_player_may_rebuy_within_the_period() -> None:
    assert rebuy_refusal(REBUY_MTT, NONE_BOUGHT, chips=0, last_hand_level=3, clock=LEVEL_3) is None


def test_p4_2_p7_1_bust_in_a_hand_started_in_the_period_counts_after_the_clock_moved_on() -> None:
    assert rebuy_refusal(REBUY_MTT, NONE_BOUGHT, chips=0, last_hand_level=6, clock=LEVEL_7) is None
    assert (
        rebuy_refusal(REBUY_MTT, NONE_BOUGHT, chips=0, last_hand_level=7, clock=LEVEL_7) is PurchaseRefusal.PERIOD_OVER
    )


def test_p4_2_rebuys_are_finite() -> None:
    assert (
        rebuy_refusal(REBUY_MTT, PlayerPurchases(rebuys=2), chips=0, last_hand_level=3, clock=LEVEL_3)
        is PurchaseRefusal.LIMIT_REACHED
    )


def test_p4_2_out_of_chips_variant_refuses_a_player_with_chips() -> None:
    assert (
        rebuy_refusal(REBUY_MTT, NONE_BOUGHT, chips=100, last_hand_level=3, clock=LEVEL_3)
        is PurchaseRefusal.NOT_OUT_OF_CHIPS
    )


def test_p4_2_at_or_below_starting_stack_variant() -> None:
    assert REBUY_MTT.rebuy is not None
    common = revise(
        REBUY_MTT, rebuy=REBUY_MTT.rebuy.model_copy(update={"eligibility": RebuyEligibility.AT_OR_BELOW_STARTING_STACK})
    )
    assert rebuy_refusal(common, NONE_BOUGHT, chips=STACK, last_hand_level=3, clock=LEVEL_3) is None
    assert rebuy_refusal(common, NONE_BOUGHT, chips=STACK, last_hand_level=6, clock=BREAK_AFTER_6) is None
    assert (
        rebuy_refusal(common, NONE_BOUGHT, chips=STACK + 1, last_hand_level=3, clock=LEVEL_3)
        is PurchaseRefusal.NOT_OUT_OF_CHIPS
    )
    assert (
        rebuy_refusal(common, NONE_BOUGHT, chips=STACK, last_hand_level=6, clock=LEVEL_7) is PurchaseRefusal.PERIOD_OVER
    )


def test_p4_1_only_in_tournaments_configured_for_them() -> None:
    freezeout = scheduled_mtt("Freezeout", Price(prize_part_cents=900, fee_cents=100))
    assert (
        rebuy_refusal(freezeout, NONE_BOUGHT, chips=0, last_hand_level=1, clock=LEVEL_3) is PurchaseRefusal.NOT_OFFERED
    )
    assert addon_refusal(freezeout, NONE_BOUGHT, chips=10, clock=BREAK_AFTER_6) is PurchaseRefusal.NOT_OFFERED


def test_p4_3_addon_at_its_break_even_with_chips_left() -> None:
    assert addon_refusal(REBUY_MTT, NONE_BOUGHT, chips=25_000, clock=BREAK_AFTER_6) is None


@pytest.mark.parametrize(
    ("purchases", "chips", "clock", "refusal"),
    [
        (NONE_BOUGHT, 500, LEVEL_3, PurchaseRefusal.NOT_AN_ADDON_MOMENT),
        (NONE_BOUGHT, 500, LEVEL_7, PurchaseRefusal.NOT_AN_ADDON_MOMENT),
        (
            PlayerPurchases(addon_moments=frozenset({6})),
            500,
            BREAK_AFTER_6,
            PurchaseRefusal.ALREADY_BOUGHT_AT_THIS_MOMENT,
        ),
        (NONE_BOUGHT, 0, BREAK_AFTER_6, PurchaseRefusal.NO_CHIPS),
    ],
)
def test_p4_3_addon_refusals(
    purchases: PlayerPurchases, chips: int, clock: ClockReading, refusal: PurchaseRefusal
) -> None:
    assert addon_refusal(REBUY_MTT, purchases, chips=chips, clock=clock) is refusal


def test_p10_2_rebuys_or_addons_possible_until_the_addon_break_ends() -> None:
    assert rebuys_or_addons_still_possible(REBUY_MTT, LEVEL_3)
    assert rebuys_or_addons_still_possible(REBUY_MTT, BREAK_AFTER_6)
    assert not rebuys_or_addons_still_possible(REBUY_MTT, LEVEL_7)
    freezeout = scheduled_mtt("Freezeout", Price(prize_part_cents=900, fee_cents=100))
    assert not rebuys_or_addons_still_possible(freezeout, LEVEL_3)
