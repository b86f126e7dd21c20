"""Tournament definitions validated at creation (P-3, P-4.5, P-7, P-8.1, P-9, P-11.7)."""

import json
from typing import Any

import pytest
from tournament_director.domain.access import AccessRestrictions, SkillTier
from tournament_director.domain.definition import (
    AddonSettings,
    BlindLevel,
    BlindStructure,
    Break,
    FreerollSettings,
    PayoutBracket,
    PayoutSettings,
    RebuySettings,
    SatelliteSettings,
    TableSettings,
    TournamentDefinition,
    create_definition,
    revise,
)
from tournament_director.domain.entries import FREE, Price
from tournament_director.domain.issues import DefinitionError
from tournament_director.domain.kinds import PrizeForm, SatellitePrizeMode, TableMode, TournamentKind
from tournament_director.domain.payouts import SEED_TABLE, PayoutSchedule, default_schedule
from tournament_director.domain.templates import (
    MINIMUM_SPONSORED_ENTRY,
    freeroll,
    heads_up_sit_and_go,
    nine_max_sit_and_go,
    rebuy_mtt,
    satellite,
    scheduled_mtt,
    shootout_sit_and_go,
    six_max_sit_and_go,
    standard_blinds,
)

TEN_EURO = Price(prize_part_cents=900, fee_cents=100)
MTT = scheduled_mtt("Sunday", TEN_EURO)
SNG = nine_max_sit_and_go("Nine", TEN_EURO)


def _price(total_cents: int) -> Price:
    """A price with exactly 80% prize part."""
    return Price(prize_part_cents=total_cents * 4 // 5, fee_cents=total_cents - total_cents * 4 // 5)


def _issues(base: TournamentDefinition, **changes: Any) -> set[tuple[str, str]]:
    with pytest.raises(DefinitionError) as refused:
        revise(base, **changes)
    return {(issue.field, issue.code) for issue in refused.value.issues}


def _rebuy(max_rebuys: int, price: Price = TEN_EURO, last_level: int = 6) -> RebuySettings:
    return RebuySettings(price=price, chips=3000, max_rebuys=max_rebuys, last_level=last_level)


def _addon(max_addons: int, price: Price = TEN_EURO, moments: tuple[int, ...] = (6,)) -> AddonSettings:
    return AddonSettings(price=price, chips=3000, max_addons=max_addons, at_breaks_after_levels=moments)


@pytest.mark.parametrize(
    "definition",
    [
        heads_up_sit_and_go("HU", TEN_EURO),
        six_max_sit_and_go("6max", TEN_EURO),
        SNG,
        MTT,
        rebuy_mtt("Rebuy", TEN_EURO),
        freeroll("Free", guarantee_cents=10_000),
        satellite(
            "Sat",
            TEN_EURO,
            target_tournament_id="sunday-major",
            seat_price=Price(prize_part_cents=9000, fee_cents=1000),
        ),
        shootout_sit_and_go("Shoot", TEN_EURO),
    ],
    ids=lambda definition: definition.name,
)
def test_p3_3_templates_are_valid_definitions(definition: TournamentDefinition) -> None:
    assert create_definition(definition.model_dump()) == definition
    assert create_definition(json.loads(definition.model_dump_json())) == definition


# P-3.1 sit'n'go seats, P-3.2 scheduled field


@pytest.mark.parametrize("seats", [2, 120])
def test_p3_1_sit_and_go_seats_from_2_to_120(seats: int) -> None:
    assert revise(SNG, min_players=seats, max_players=seats).max_players == seats


@pytest.mark.parametrize("seats", [1, 121])
def test_p3_1_sit_and_go_outside_2_to_120_is_refused(seats: int) -> None:
    assert ("max_players", "sit_and_go_seats_out_of_range") in _issues(SNG, min_players=seats, max_players=seats)


def test_p3_1_sit_and_go_has_a_fixed_number_of_seats() -> None:
    assert ("min_players", "sit_and_go_seats_not_fixed") in _issues(SNG, min_players=6, max_players=9)


def test_p3_2_scheduled_field_between_10_and_3000() -> None:
    assert revise(MTT, min_players=10, max_players=3000).min_players == 10
    assert ("min_players", "scheduled_min_players_below_10") in _issues(MTT, min_players=9)
    assert ("max_players", "scheduled_max_players_above_3000") in _issues(MTT, max_players=3001)
    assert ("max_players", "max_players_below_min_players") in _issues(MTT, min_players=50, max_players=40)


def test_p3_2_more_than_3000_only_as_an_explicit_exception() -> None:
    assert revise(MTT, max_players=5000, field_limit_exception=True).max_players == 5000
    assert ("field_limit_exception", "field_limit_exception_not_applicable") in _issues(SNG, field_limit_exception=True)


# P-3.5 price range, P-8.1 80% floor


@pytest.mark.parametrize("total", [50, 10_000])
def test_p3_5_buy_in_from_50_cents_to_100_euro(total: int) -> None:
    assert revise(MTT, buy_in=_price(total)).buy_in.total_cents == total


@pytest.mark.parametrize("total", [49, 10_001])
def test_p3_5_buy_in_outside_the_range_is_refused(total: int) -> None:
    assert ("buy_in", "price_out_of_range") in _issues(MTT, buy_in=_price(total))


def test_p8_1_prize_part_at_least_80_percent() -> None:
    assert revise(MTT, buy_in=Price(prize_part_cents=800, fee_cents=200)).buy_in.fee_cents == 200
    refused = _issues(MTT, buy_in=Price(prize_part_cents=799, fee_cents=201))
    assert refused == {("buy_in.prize_part_cents", "prize_part_below_80_percent")}


# P-4.5 rebuy and add-on caps on full prices


def test_p4_5_buy_in_plus_all_rebuys_up_to_100_euro() -> None:
    twenty = _price(2000)
    assert revise(MTT, buy_in=twenty, rebuy=_rebuy(4, twenty)).rebuy is not None  # 20 + 4 × 20 = 100
    assert ("rebuy.max_rebuys", "rebuy_cap_exceeded") in _issues(MTT, buy_in=twenty, rebuy=_rebuy(5, twenty))


def test_p4_5_all_addons_plus_all_rebuys_up_to_100_euro() -> None:
    base = revise(MTT, blinds=standard_blinds(10, break_every=3))
    # add-ons 2 × €10 + rebuys 4 × €20 = €100: accepted; a €0.01 dearer add-on is refused.
    rebuys = _rebuy(4, _price(2000))
    assert revise(base, buy_in=_price(2000), rebuy=rebuys, addon=_addon(2, _price(1000), (3, 6))).addon
    dearer = Price(prize_part_cents=801, fee_cents=200)
    assert ("addon.max_addons", "addon_cap_exceeded") in _issues(
        base, buy_in=_price(2000), rebuy=rebuys, addon=_addon(2, dearer, (3, 6))
    )


def test_p4_5_caps_count_the_fee_too() -> None:
    # 45+5 buy-in and one 45+5 rebuy make €100 in full prices: accepted. One more cent of fee on the rebuy,
    # prize parts unchanged, is refused.
    half = Price(prize_part_cents=4500, fee_cents=500)
    assert revise(MTT, buy_in=half, rebuy=_rebuy(1, half)).rebuy is not None
    tipped = Price(prize_part_cents=4500, fee_cents=501)
    assert ("rebuy.max_rebuys", "rebuy_cap_exceeded") in _issues(MTT, buy_in=half, rebuy=_rebuy(1, tipped))


def test_p4_rebuy_and_addon_prices_follow_the_buy_in_rules() -> None:
    cheap = Price(prize_part_cents=40, fee_cents=9)
    greedy = Price(prize_part_cents=700, fee_cents=300)
    refused = _issues(MTT, rebuy=_rebuy(1, cheap), addon=_addon(1, greedy))
    assert {
        ("rebuy.price", "price_out_of_range"),
        ("addon.price.prize_part_cents", "prize_part_below_80_percent"),
    } <= refused


def test_p4_2_rebuy_period_within_the_levels() -> None:
    levels = len(MTT.blinds.levels)
    assert ("rebuy.last_level", "rebuy_period_beyond_levels") in _issues(MTT, rebuy=_rebuy(1, last_level=levels + 1))


def test_p7_2_addon_moments_are_breaks_one_addon_each() -> None:
    assert ("addon.at_breaks_after_levels.0", "addon_moment_not_a_break") in _issues(MTT, addon=_addon(1, moments=(5,)))
    assert ("addon.max_addons", "more_addons_than_moments") in _issues(MTT, addon=_addon(2, moments=(6,)))
    assert ("addon.at_breaks_after_levels", "addon_moment_repeated") in _issues(MTT, addon=_addon(1, moments=(6, 6)))


# P-9 freerolls


def test_p9_2_cash_freeroll_needs_a_sponsored_entry_of_at_least_50_cents() -> None:
    base = freeroll("Free")
    assert base.entry_price == MINIMUM_SPONSORED_ENTRY
    assert ("freeroll.sponsored_entry", "sponsored_entry_required") in _issues(
        base, freeroll=FreerollSettings(prize_form=PrizeForm.CASH)
    )
    assert ("freeroll.sponsored_entry", "price_out_of_range") in _issues(
        base, freeroll=FreerollSettings(sponsored_entry=Price(prize_part_cents=40, fee_cents=9))
    )


def test_p9_1_freeroll_is_free_to_enter_without_paid_rebuys() -> None:
    refused = _issues(freeroll("Free"), buy_in=TEN_EURO, rebuy=_rebuy(1))
    assert {("buy_in", "freeroll_not_free"), ("rebuy", "paid_rebuy_in_freeroll")} <= refused


def test_p9_3_bonus_freeroll_needs_prizes() -> None:
    bonus = FreerollSettings(prize_form=PrizeForm.BONUS)
    assert revise(freeroll("Free"), freeroll=bonus, guarantee_cents=5000).entry_price == FREE
    assert ("guarantee_cents", "freeroll_without_prizes") in _issues(freeroll("Free"), freeroll=bonus)


# P-7 blind structure


def _level(small: int, big: int, ante: int = 0) -> BlindLevel:
    return BlindLevel(small_blind=small, big_blind=big, ante=ante, duration_seconds=600)


def test_p7_1_levels_never_decrease_and_big_blind_is_the_larger() -> None:
    blinds = BlindStructure(levels=(_level(10, 20), _level(30, 25), _level(20, 40, 5), _level(20, 40)))
    refused = _issues(MTT, blinds=blinds)
    assert {
        ("blinds.levels.1.big_blind", "big_blind_below_small_blind"),
        ("blinds.levels.2", "blind_level_decreases"),
        ("blinds.levels.3", "blind_level_decreases"),
    } <= refused


def test_p7_2_breaks_sit_between_levels() -> None:
    blinds = BlindStructure(
        levels=(_level(10, 20), _level(20, 40)),
        breaks=(
            Break(after_level=1, duration_seconds=60),
            Break(after_level=1, duration_seconds=60),
            Break(after_level=2, duration_seconds=60),
        ),
    )
    refused = _issues(MTT, blinds=blinds)
    assert {("blinds.breaks", "break_repeated"), ("blinds.breaks.2.after_level", "break_after_last_level")} <= refused
    assert ("blinds.levels", "no_blind_levels") in _issues(MTT, blinds=BlindStructure(levels=()))


def test_p3_3_starting_stack_covers_the_first_big_blind() -> None:
    assert ("starting_stack", "starting_stack_below_big_blind") in _issues(MTT, starting_stack=19)


# P-6.4 shoot-out, P-3.4 satellite, P-11.7 access


def test_p6_4_shootout_tables_play_down_to_at_most_half_their_seats() -> None:
    base = shootout_sit_and_go("Shoot", TEN_EURO, tables=3, seats_per_table=6, winners_per_table=3)
    assert base.tables.shootout_winners_per_table == 3
    too_many = TableSettings(seats_per_table=6, mode=TableMode.SHOOTOUT, shootout_winners_per_table=4)
    assert ("tables.shootout_winners_per_table", "shootout_winners_too_many") in _issues(base, tables=too_many)


@pytest.mark.parametrize("mode", list(SatellitePrizeMode))
def test_p3_4_satellite_prize_modes(mode: SatellitePrizeMode) -> None:
    seat = Price(prize_part_cents=9000, fee_cents=1000)
    definition = satellite("Sat", TEN_EURO, target_tournament_id="t", seat_price=seat, prize_mode=mode)
    assert definition.satellite is not None and definition.satellite.prize_mode is mode
    with pytest.raises(ValueError):
        definition.payout_schedule(50)


def test_p3_4_satellite_pays_seats_not_a_schedule() -> None:
    sat = satellite("Sat", TEN_EURO, target_tournament_id="t", seat_price=Price(prize_part_cents=9000, fee_cents=1000))
    brackets = PayoutSettings(
        brackets=(PayoutBracket(min_entrants=10, max_entrants=3000, schedule=default_schedule(10)),)
    )
    assert ("payouts.brackets", "satellite_pays_seats") in _issues(sat, payouts=brackets)
    free_seat = SatelliteSettings(target_tournament_id="t", seat_price=FREE, prize_mode=SatellitePrizeMode.TICKET)
    assert ("satellite.seat_price", "seat_price_not_positive") in _issues(sat, satellite=free_seat)


def test_p11_7_tier_restrictions_are_consistent() -> None:
    both = AccessRestrictions(allowed_tiers=frozenset({SkillTier.LISTED}), excluded_tiers=frozenset({SkillTier.LISTED}))
    assert ("access.excluded_tiers", "tier_allowed_and_excluded") in _issues(MTT, access=both)
    assert ("access.allowed_tiers", "no_tier_allowed") in _issues(
        MTT, access=AccessRestrictions(allowed_tiers=frozenset())
    )
    invited = revise(MTT, access=AccessRestrictions(invitation_only=True))
    assert invited.access.invitation_only


# P-8.4 custom payout schedules


def _bracket(low: int, high: int, *shares: int) -> PayoutBracket:
    return PayoutBracket(min_entrants=low, max_entrants=high, schedule=PayoutSchedule(shares_bps=shares))


def test_p8_4_tournament_sets_its_own_schedule_by_field_size() -> None:
    custom = PayoutSettings(brackets=(_bracket(10, 99, 7000, 3000), _bracket(100, 3000, 5000, 3000, 2000)))
    definition = revise(MTT, payouts=custom)
    assert definition.payout_schedule(50).shares_bps == (7000, 3000)
    assert definition.payout_schedule(100).shares_bps == (5000, 3000, 2000)
    assert MTT.payout_schedule(50) == SEED_TABLE[1][2]


def test_p8_4_custom_brackets_cover_the_field_without_gaps_or_overlaps() -> None:
    gap = PayoutSettings(brackets=(_bracket(10, 50, 10_000), _bracket(52, 3000, 10_000)))
    overlap = PayoutSettings(brackets=(_bracket(10, 50, 10_000), _bracket(50, 3000, 10_000)))
    short = PayoutSettings(brackets=(_bracket(11, 2000, 10_000),))
    assert _issues(MTT, payouts=gap) == {("payouts.brackets", "payout_brackets_gap")}
    assert _issues(MTT, payouts=overlap) == {("payouts.brackets", "payout_brackets_overlap")}
    assert _issues(MTT, payouts=short) == {("payouts.brackets", "payout_brackets_gap")}


def test_p8_4_no_more_prizes_than_entrants() -> None:
    sng = PayoutSettings(brackets=(_bracket(9, 9, *[1000] * 10),))
    assert ("payouts.brackets.0.schedule", "more_prizes_than_entrants") in _issues(SNG, payouts=sng)


def test_p8_4_schedule_must_sum_to_100_percent_reported_as_an_issue() -> None:
    data = MTT.model_dump()
    data["payouts"] = {
        "brackets": [{"min_entrants": 10, "max_entrants": 3000, "schedule": {"shares_bps": [6000, 3000]}}]
    }
    with pytest.raises(DefinitionError) as refused:
        create_definition(data)
    assert refused.value.as_dicts() == [
        {
            "field": "payouts.brackets.0.schedule.shares_bps",
            "code": "payout_shares_not_100_percent",
            "message": "the shares add up to 9000 bp, not 10,000 bp (100%)",
        }
    ]


# Errors come in one type, all at once


def test_shape_errors_become_definition_issues() -> None:
    data = {**MTT.model_dump(), "betting_structure": "spread_limit", "starting_stack": -5}
    with pytest.raises(DefinitionError) as refused:
        create_definition(data)
    assert {(issue.field, issue.code) for issue in refused.value.issues} == {
        ("betting_structure", "enum"),
        ("starting_stack", "greater_than"),
    }


def test_every_broken_rule_is_reported_at_once() -> None:
    refused = _issues(MTT, min_players=5, buy_in=_price(20_000), starting_stack=1)
    assert {code for _, code in refused} == {
        "scheduled_min_players_below_10",
        "price_out_of_range",
        "starting_stack_below_big_blind",
    }


def test_p3_3_a_definition_object_is_valid_by_construction() -> None:
    with pytest.raises(DefinitionError):
        TournamentDefinition(**{**dict(MTT), "kind": TournamentKind.SIT_AND_GO})


def test_p4_1_rebuys_allowed_in_a_heads_up_when_configured() -> None:
    heads_up = heads_up_sit_and_go("HU", TEN_EURO)
    assert heads_up.is_heads_up
    assert revise(heads_up, rebuy=_rebuy(2, last_level=3)).rebuy is not None


def test_p2_5_table_winner_prizes_belong_to_shootouts() -> None:
    assert ("payouts.table_winners_bps", "table_winners_without_shootout") in _issues(
        MTT, payouts={"table_winners_bps": 5_000}
    )
    shootout = shootout_sit_and_go("Shoot-out", TEN_EURO)
    assert revise(shootout, payouts={"table_winners_bps": 5_000}).payouts.table_winners_bps == 5_000
    assert ("payouts.table_winners_bps", "less_than_equal") in _issues(shootout, payouts={"table_winners_bps": 10_001})
