"""Pure domain rules of the rating service (P-11 ratings and skill tiers, P-12 conduct and sanctions).

No I/O, no framework, no clock: days, instants and all data come in as arguments. Everything is
immutable, and every number is an integer, so any process computes the same results bit for bit.

Units
    Points are integer MICRO-POINTS (1 point = 1_000_000, `MICRO_PER_POINT`; `to_points` gives a Decimal
    for display). Money arrives in cents; the P-11.1 formula works in euros: pool EUR 100, 4th place ->
    sqrt(100) / sqrt(4) = 5 points = 5_000_000 micro-points. Irrational values are computed exactly and
    rounded once to the nearest micro-point, ties to even.

Points (P-11.1, P-11.8, P-2.4)                                                    -- points.py
    TournamentResult(tournament_id, day, entries_cents, finishes, rebuys_cents=0, addons_cents=0)
    Finish(player_id, position, tied_positions=1)   players tied over k positions share their mean points
    awards_for(result) -> tuple[Award, ...]          Award(player_id, tournament_id, day, points)
    tournament_points(pool_cents, position) -> int
    award_day(finished_at, zone) -> date             the rating day: finish date in the platform's zone

Rating on a day (P-11.2)                                            -- decay.py, summary.py
    A point earned on day d is worth 0.98^(D - d) on day D (full value on day d itself). The rating is
    defined by folding the awards in day order (see summary.py for the exact rounding points); it is a
    pure function of the awards and D — no nightly job.
    RatingSummary(player_id, last_day=None, value=0)   one SQL row per player: value at end of last_day
    apply_award(summary, award) -> RatingSummary       O(1); raises AwardOutOfOrder for an earlier day
    summarize(player_id, awards, as_of=None)           from scratch, any order, tournaments counted once
    is_new_award(recorded: Award | None, incoming) -> bool   exactly-once by tournament id
    rating_on(summary, day) -> int                     fast path, day >= summary.last_day
    rating_as_of(player_id, awards, day) -> int        any day, from the award history
    decay(value, days) -> int; carry_over_factor(days) -> Fraction; DAILY_CARRY_OVER = 49/50

    Service flow for a tournament result: for each award of awards_for(result), in one transaction:
    look up the recorded award for (player, tournament); if is_new_award(...): insert it, then
    summary = apply_award(summary, award), or on AwardOutOfOrder summary = summarize(player, all awards).

Tiers (P-11.3, P-11.4, P-11.6, P-11.8)                                            -- tiers.py
    Tier: GRUPPO_UNO, GRUPPO_DUE, GRUPPO_TRE, LISTED, CONDIZIONATA, ESORDIENTE, INATTIVO;
        .label == "GRUPPO UNO (Group One)", .italian_name, .english_name; CLASSIFIED_TIERS best first.
    is_active(last_day, day): last tournament on day-359 .. day (ACTIVITY_WINDOW_DAYS = 360)
    active_rating(summary, day) -> int | None: the rating that ranks the player that day, None if not active
    part_sizes(n) -> five sizes, the n % 5 extra players in the best tiers; tier_for_rank(rank, n)
    compute_tiers(summaries, day) -> TierTable(cutoffs, tiers); .tier_of(player_id) (unknown: ESORDIENTE)
    TierCutoffs(day, active_count, minimum_ratings): store a day's five cutoffs, then
        cutoffs.tier_for(summary) answers one player's tier for that day in O(1).
    tier_changes(before: TierTable, after: TierTable) -> tuple[TierChange(player_id, before, after), ...]
    There is deliberately no way to set a tier: tiers are only ever derived from ratings (P-11.6).

Leaderboard (P-11.5)                                                          -- leaderboard.py
    Leaderboard.build(summaries, day, depth=None); .page(number, size=50) -> LeaderboardPage;
    .rank_for(rating) -> int. Entries: LeaderboardEntry(rank, player_id, rating, tier); the public
    API shows the nickname in place of player_id, nothing else.

Eligibility (P-11.7, P-12.5)                                                  -- eligibility.py
    AccessPolicy(allowed_tiers=None, excluded_tiers=frozenset(), invitation_only=False,
                 invited_player_ids=frozenset())
    check_eligibility(policy, player_id, tier, restrictions=NO_RESTRICTIONS, disqualified=False)
        -> Eligibility(eligible, reason: EligibilityReason)

Conduct and sanctions (P-12)          -- conduct.py, sanctions.py, appeals.py, restrictions.py, history.py
    Report(report_id, offender_id, offence: OffenceKind, detection: Detection, filed_at, reporter_id, ...)
    impose(reports, sanction_id=, kind=, context=, offence=, gravity=, decided_at=, decided_by=,
           room_id=, tournament_id=, duration=, ban_scope=, ranking_penalty_positions=,
           entries_forfeit=, reason=) -> Sanction        refuses what SANCTION_RULES do not allow
    SANCTION_RULES[kind] -> SanctionRule(contexts, temporary, permanent, tournament_bound, blocks_chat,
                                         blocks_access, removes_registrations)
    SanctionRecord(sanction, appeal=None): .file_appeal(at, grounds), .decide_appeal(outcome, at, by),
        .in_force_at(at), .stands_at(at)
    restrictions_at(records, at, room_id) -> PlayerRestrictions(can_log_in, can_register, can_chat, ...)
    tournament_effects(records, tournament_id, room_id=, registered_at=, finished_at=, at=)
        -> TournamentEffects(disqualified, entry_forfeit, ranking_penalty_positions, sanction_ids)
    conduct_history(player_id, reports, records, at) -> ConductHistory
    suggest_sanction(offence, gravity, context, history) -> SuggestedSanction   advisory only

Errors are RatingDomainError (a ValueError) subclasses with a stable `code`; see errors.py.
"""

from .appeals import Appeal, AppealOutcome, SanctionRecord
from .conduct import Detection, Gravity, OffenceKind, Report
from .decay import DAILY_CARRY_OVER, carry_over_factor, decay
from .eligibility import AccessPolicy, Eligibility, EligibilityReason, check_eligibility
from .errors import (
    AwardOutOfOrder,
    ConflictingAward,
    InvalidAccessPolicy,
    InvalidAppeal,
    InvalidReport,
    InvalidSanction,
    InvalidTournamentResult,
    RatingDomainError,
    SummaryAfterDay,
)
from .fixed_point import MICRO_PER_POINT, to_points
from .history import ConductHistory, conduct_history
from .leaderboard import Leaderboard, LeaderboardEntry, LeaderboardPage
from .points import Award, Finish, TournamentResult, award_day, awards_for, tournament_points
from .restrictions import (
    NO_RESTRICTIONS,
    PlayerRestrictions,
    TournamentEffects,
    restrictions_at,
    tournament_effects,
)
from .sanctions import (
    SANCTION_RULES,
    BanScope,
    Sanction,
    SanctionContext,
    SanctionKind,
    SanctionRule,
    impose,
)
from .suggestion import SuggestedSanction, suggest_sanction
from .summary import RatingSummary, apply_award, is_new_award, rating_as_of, rating_on, summarize
from .tiers import (
    ACTIVITY_WINDOW_DAYS,
    CLASSIFIED_TIERS,
    Tier,
    TierChange,
    TierCutoffs,
    TierTable,
    active_rating,
    compute_tiers,
    is_active,
    part_sizes,
    tier_changes,
    tier_for_rank,
)

__all__ = [
    "ACTIVITY_WINDOW_DAYS",
    "CLASSIFIED_TIERS",
    "DAILY_CARRY_OVER",
    "MICRO_PER_POINT",
    "NO_RESTRICTIONS",
    "SANCTION_RULES",
    "AccessPolicy",
    "Appeal",
    "AppealOutcome",
    "Award",
    "AwardOutOfOrder",
    "BanScope",
    "ConductHistory",
    "ConflictingAward",
    "Detection",
    "Eligibility",
    "EligibilityReason",
    "Finish",
    "Gravity",
    "InvalidAccessPolicy",
    "InvalidAppeal",
    "InvalidReport",
    "InvalidSanction",
    "InvalidTournamentResult",
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardPage",
    "OffenceKind",
    "PlayerRestrictions",
    "RatingDomainError",
    "RatingSummary",
    "Report",
    "Sanction",
    "SanctionContext",
    "SanctionKind",
    "SanctionRecord",
    "SanctionRule",
    "SuggestedSanction",
    "SummaryAfterDay",
    "Tier",
    "TierChange",
    "TierCutoffs",
    "TierTable",
    "TournamentEffects",
    "TournamentResult",
    "active_rating",
    "apply_award",
    "award_day",
    "awards_for",
    "carry_over_factor",
    "check_eligibility",
    "compute_tiers",
    "conduct_history",
    "decay",
    "impose",
    "is_active",
    "is_new_award",
    "part_sizes",
    "rating_as_of",
    "rating_on",
    "restrictions_at",
    "suggest_sanction",
    "summarize",
    "tier_changes",
    "tier_for_rank",
    "to_points",
    "tournament_effects",
    "tournament_points",
]
