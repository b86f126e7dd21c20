"""Pure domain rules of the tournament-director service: no I/O, no framework imports, no clock, no globals.

Money is integer cents; percentages are basis points (10,000 bp = 100%); time and randomness come in as
arguments (`datetime`, `random.Random` — pass `random.SystemRandom()` in production). Every module cites the
rules of spec/poker.md (P-…) it implements and documents its interpretations.

Public API, by job (everything below is importable from `tournament_director.domain`):

Definitions (P-3, P-4.5, P-7, P-8.1, P-9, P-11.7) — `definition`, `definition_rules`, `templates`, `kinds`
    create_definition(data: dict | TournamentDefinition) -> TournamentDefinition   # raises DefinitionError
    revise(definition, **changes) -> TournamentDefinition                           # re-validated copy
    TournamentDefinition (pydantic, frozen, valid by construction)
        .payout_schedule(entrants) -> PayoutSchedule; .entry_price -> Price; .is_heads_up -> bool
    DefinitionError(issues: Sequence[Issue]); .issues; .as_dicts() -> [{field, code, message}]
    templates: heads_up_sit_and_go, six_max_sit_and_go, nine_max_sit_and_go, shootout_sit_and_go,
        scheduled_mtt, rebuy_mtt, freeroll, satellite (name, price, keyword options) -> TournamentDefinition

Money facts (P-8.1–P-8.3, P-8.7) — `entries`, `prize_pool`, `tax`, `money`
    Price(prize_part_cents, fee_cents); Entry(kind: EntryKind, price, form: PaymentForm)
    fund_prize_pool(entries, guarantee_cents) -> PoolFunding(.pool_cents, .overlay_cents)
    assess_tax(entries, rate_bps) -> TaxAssessment(base_cents, rate_bps, tax_cents)
    allocate(total_cents, weights) -> list[int]          # the one P-8.5 rounding rule

Payouts (P-8.4, P-8.5, P-2.4, P-3.4) — `payouts`
    default_schedule(entrants) -> PayoutSchedule; payout_amounts(pool_cents, schedule) -> tuple[int, ...]
    prizes_by_player(amounts, groups: Sequence[RankGroup]) -> dict[player, cents]   # ties shared
    satellite_prizes(pool_cents, seat_price_cents) -> SatellitePrizes(seats, cash_remainder_cents)
    PrizeTable.of_satellite(pool, seat_price).seat_winners(groups) / .cash_by_player(groups)   # seats, ties

Ranking (P-2.1–P-2.4, P-12.3, P-12.5) — `ranking`
    EliminationLog(entrants).record_busts([Bust(player, chips_at_hand_start, seats_from_button, table_id)])
        -> tuple[RankGroup, ...];  .disqualify(player); .penalize(player, places); .remaining
        .final_ranking() -> FinalRanking;  .standing_of_eliminated() -> tuple[RankGroup, ...]  (for P-10)

Seating and tables (P-5, P-6) — `seating`, `table_planner`, `blind_positions`
    initial_seating(players, seats_per_table, rng) -> Layout
    plan_after_hand(layout, finished_table_id, table_settings, *, paid_places, rng) -> tuple[Command, ...]
        Command = MovePlayer | BreakTable | HoldTable | StartHandForHand | StopHandForHand
                  | FinalTableReached | StartShootoutPhase      (carry them out in order)
    shootout_byes(layout, table_settings) -> tuple[HoldTable, ...]    # after seating a shoot-out phase
    apply_plan(layout, commands) -> Layout

Clock, rebuys and add-ons (P-4, P-7) — `blind_clock`, `rebuy_addon`
    BlindClock(structure, started_at).reading_at(now) -> ClockReading; .level_for_new_hand(now)
    rebuy_refusal(definition, purchases, *, chips, last_hand_level, clock) -> PurchaseRefusal | None
    addon_refusal(definition, purchases, *, chips, clock) -> PurchaseRefusal | None
    rebuys_or_addons_still_possible(definition, clock) -> bool            # P-10.2 vs P-10.3

Cancellation (P-10) — `cancellation`
    settle_cancellation(CancellationCase(...)) -> CancellationSettlement(rule, residual_prize_pool_cents,
        capped_by_residual, lines: RefundLine…, overlays: OverlayLine…)   # P-10.10 checked on every call
    refund_all_entries(entries) -> tuple[RefundLine, ...]     # P-3.2: cancelled at start, below the minimum

Jackpots (P-8.6) — `jackpots`
    JackpotProgramme(programme_id, fee_share_bps, condition: LostShowdownCondition | WinStreakCondition)
    jackpot_contribution_cents(programme, price, tax_rate_bps) -> int
    showdown_qualifiers(programme, Showdown) -> tuple[player, ...]
    streak_qualifiers(programme, FinishedTournament, streaks) -> StreakOutcome(qualifiers, streaks)

Access (P-11.7) — `access`
    access_refusal(restrictions, tier, invited) -> AccessRefusal | None
"""

from tournament_director.domain.access import AccessRefusal, AccessRestrictions, SkillTier, access_refusal
from tournament_director.domain.blind_clock import BlindClock, ClockReading
from tournament_director.domain.cancellation import (
    CancellationCase,
    CancellationError,
    CancellationSettlement,
    ConservationError,
    OverlayKind,
    OverlayLine,
    RefundLine,
    RefundReason,
    refund_all_entries,
    settle_cancellation,
)
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
from tournament_director.domain.entries import FREE, Entry, EntryKind, PaymentForm, Price
from tournament_director.domain.issues import DefinitionError, Issue
from tournament_director.domain.jackpots import (
    FinishedTournament,
    HandCategory,
    JackpotProgramme,
    LostShowdownCondition,
    Showdown,
    ShowdownHand,
    StreakOutcome,
    WinStreakCondition,
    jackpot_contribution_cents,
    showdown_qualifiers,
    split_jackpot,
    streak_qualifiers,
)
from tournament_director.domain.kinds import (
    BettingStructure,
    PrizeForm,
    RebuyEligibility,
    SatellitePrizeMode,
    TableMode,
    TournamentKind,
)
from tournament_director.domain.money import BASIS_POINTS_PER_WHOLE, allocate, split_equally
from tournament_director.domain.payouts import (
    PayoutSchedule,
    PrizeTable,
    SatellitePrizes,
    default_schedule,
    payout_amounts,
    prizes_by_player,
    satellite_prizes,
    tied_prize_shares,
)
from tournament_director.domain.prize_pool import PoolFunding, fund_prize_pool
from tournament_director.domain.ranking import (
    Bust,
    EliminationLog,
    FinalRanking,
    PlayerId,
    RankGroup,
    RankingError,
    seats_from_button,
)
from tournament_director.domain.rebuy_addon import (
    PlayerPurchases,
    PurchaseRefusal,
    addon_refusal,
    rebuy_refusal,
    rebuys_or_addons_still_possible,
)
from tournament_director.domain.seating import (
    BreakTable,
    Command,
    FinalTableReached,
    HoldTable,
    Layout,
    MovePlayer,
    MoveReason,
    SeatRef,
    StartHandForHand,
    StartShootoutPhase,
    StopHandForHand,
    Table,
    apply_plan,
    initial_seating,
    tables_needed,
)
from tournament_director.domain.table_planner import plan_after_hand, shootout_byes
from tournament_director.domain.tax import TaxAssessment, assess_tax, tax_base_cents
from tournament_director.domain.templates import (
    freeroll,
    heads_up_sit_and_go,
    nine_max_sit_and_go,
    rebuy_mtt,
    satellite,
    scheduled_mtt,
    shootout_sit_and_go,
    six_max_sit_and_go,
)

__all__ = [
    "BASIS_POINTS_PER_WHOLE",
    "FREE",
    "AccessRefusal",
    "AccessRestrictions",
    "AddonSettings",
    "BettingStructure",
    "BlindClock",
    "BlindLevel",
    "BlindStructure",
    "Break",
    "BreakTable",
    "Bust",
    "CancellationCase",
    "CancellationError",
    "CancellationSettlement",
    "ClockReading",
    "Command",
    "ConservationError",
    "DefinitionError",
    "EliminationLog",
    "Entry",
    "EntryKind",
    "FinalRanking",
    "FinalTableReached",
    "FinishedTournament",
    "FreerollSettings",
    "HandCategory",
    "HoldTable",
    "Issue",
    "JackpotProgramme",
    "Layout",
    "LostShowdownCondition",
    "MovePlayer",
    "MoveReason",
    "OverlayKind",
    "OverlayLine",
    "PaymentForm",
    "PayoutBracket",
    "PayoutSchedule",
    "PayoutSettings",
    "PlayerId",
    "PlayerPurchases",
    "PoolFunding",
    "Price",
    "PrizeForm",
    "PrizeTable",
    "PurchaseRefusal",
    "RankGroup",
    "RankingError",
    "RebuyEligibility",
    "RebuySettings",
    "RefundLine",
    "RefundReason",
    "SatellitePrizeMode",
    "SatellitePrizes",
    "SatelliteSettings",
    "SeatRef",
    "Showdown",
    "ShowdownHand",
    "SkillTier",
    "StartHandForHand",
    "StartShootoutPhase",
    "StopHandForHand",
    "StreakOutcome",
    "Table",
    "TableMode",
    "TableSettings",
    "TaxAssessment",
    "TournamentDefinition",
    "TournamentKind",
    "WinStreakCondition",
    "access_refusal",
    "addon_refusal",
    "allocate",
    "apply_plan",
    "assess_tax",
    "create_definition",
    "default_schedule",
    "freeroll",
    "fund_prize_pool",
    "heads_up_sit_and_go",
    "initial_seating",
    "jackpot_contribution_cents",
    "nine_max_sit_and_go",
    "payout_amounts",
    "plan_after_hand",
    "prizes_by_player",
    "rebuy_mtt",
    "rebuy_refusal",
    "rebuys_or_addons_still_possible",
    "refund_all_entries",
    "revise",
    "satellite",
    "satellite_prizes",
    "scheduled_mtt",
    "seats_from_button",
    "settle_cancellation",
    "shootout_byes",
    "shootout_sit_and_go",
    "showdown_qualifiers",
    "six_max_sit_and_go",
    "split_equally",
    "split_jackpot",
    "streak_qualifiers",
    "tables_needed",
    "tax_base_cents",
    "tied_prize_shares",
]
