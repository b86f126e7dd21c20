"""Request and response bodies. Points are exact decimals with six places (micro-points), e.g. "5.000000";
instants are ISO 8601 in UTC; durations ISO 8601 (e.g. "P7D") or seconds."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rating.adapters.conduct import LiftReason, ReportStatus, StoredReport, StoredSanction
from rating.domain import (
    AppealOutcome,
    BanScope,
    Detection,
    EligibilityReason,
    Gravity,
    OffenceKind,
    SanctionContext,
    SanctionKind,
    SuggestedSanction,
    Tier,
    to_points,
)
from rating.service.ratings import HistoryStep, PlayerRating, StandingsPage
from rating.service.standing import Conduct, Restrictions

GravityName = Literal["minor", "serious", "very_serious"]


def gravity_of(name: GravityName) -> Gravity:
    return Gravity[name.upper()]


def gravity_name(gravity: Gravity) -> GravityName:
    names: dict[Gravity, GravityName] = {
        Gravity.MINOR: "minor",
        Gravity.SERIOUS: "serious",
        Gravity.VERY_SERIOUS: "very_serious",
    }
    return names[gravity]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- ratings ----------------------------------------------------------------------------------------------------
class LeaderboardEntryOut(BaseModel):
    """A ranked player, by nickname only (P-11.5): no player id ever appears here."""

    rank: int = Field(description="Shared by players tied on rating (P-11.8).")
    nickname: str | None = Field(description="None only until the gateway's registration of the player arrives.")
    rating: Decimal
    tier: Tier
    tier_label: str


class LeaderboardOut(BaseModel):
    day: date | None = Field(description="The last closed day the standings and tiers are of; None before the first.")
    page: int
    size: int
    active_count: int = Field(description="Players ranked: those with a tournament in the 360 days up to `day`.")
    entries: list[LeaderboardEntryOut]
    live: bool = Field(
        False,
        description="True for `standing=now`: today's ratings, each tier the one the rank gives now (provisional "
        "until the day closes); false: the last closed day, with the tiers in force.",
    )
    tiers_recomputed_at: datetime | None = Field(
        None, description="When the tiers in force are next recomputed: the day in progress closes (reference zone)."
    )
    tiers_of_day: date | None = Field(None, description="The closed day the tiers in force come from.")

    @classmethod
    def of(cls, page: StandingsPage) -> LeaderboardOut:
        return cls(
            day=page.day,
            page=page.page,
            size=page.size,
            active_count=page.active_count,
            live=page.live,
            tiers_recomputed_at=page.tiers_recomputed_at,
            tiers_of_day=page.tiers_of_day,
            entries=[
                LeaderboardEntryOut(
                    rank=s.rank, nickname=s.nickname, rating=to_points(s.rating), tier=s.tier, tier_label=s.tier.label
                )
                for s in page.standings
            ],
        )


class HistoryStepOut(BaseModel):
    tournament_id: str
    day: date
    position: int
    tied_positions: int
    pool_cents: int = Field(description="The prize pool from entries the points come from (P-11.1, P-11.8).")
    points: Decimal
    rating_at_end_of_day: Decimal

    @classmethod
    def of(cls, step: HistoryStep) -> HistoryStepOut:
        r = step.recorded
        return cls(
            tournament_id=r.award.tournament_id,
            day=r.award.day,
            position=r.position,
            tied_positions=r.tied_positions,
            pool_cents=r.pool_cents,
            points=to_points(r.award.points),
            rating_at_end_of_day=to_points(step.rating_at_end_of_day),
        )


class PlayerRatingOut(BaseModel):
    player_id: str
    day: date
    rating: Decimal = Field(description="On `day`, its tournaments included; 98% carried over daily (P-11.2).")
    active: bool
    tier: Tier = Field(description="The tier in force, computed for the last closed day.")
    tier_label: str
    tier_since: date | None
    rank: int | None = Field(description="In the standings of the last closed day, if ranked there.")
    history: list[HistoryStepOut]

    @classmethod
    def of(cls, rating: PlayerRating) -> PlayerRatingOut:
        return cls(
            player_id=rating.player_id,
            day=rating.day,
            rating=to_points(rating.rating),
            active=rating.active,
            tier=rating.tier,
            tier_label=rating.tier.label,
            tier_since=rating.tier_since,
            rank=rating.rank,
            history=[HistoryStepOut.of(step) for step in rating.history],
        )


class EligibilityIn(_In):
    """A tournament's access policy (P-11.7) and the player asking to enter."""

    player_id: str
    tournament_id: str | None = Field(None, description="Checks disqualification from this tournament too.")
    allowed_tiers: list[Tier] | None = Field(None, description="Restricted to these tiers.")
    excluded_tiers: list[Tier] = Field(default_factory=list, description="Closed to these tiers.")
    invitation_only: bool = False
    invited: bool = Field(False, description="Whether this player holds an invitation.")


class EligibilityOut(BaseModel):
    eligible: bool
    reason: EligibilityReason
    tier: Tier


class TierRunIn(_In):
    day: date | None = Field(None, description="The day to close; default the last closed day (yesterday).")


class TierRunOut(BaseModel):
    day: date
    active_count: int
    changes: int = Field(description="Tier changes published now; 0 when the day was already closed.")


class ExpiryRunOut(BaseModel):
    lifted: int


# -- conduct ----------------------------------------------------------------------------------------------------
class ReportIn(_In):
    offender_id: str
    offence: OffenceKind
    tournament_id: str | None = None
    description: str = Field("", max_length=4000)


class ReportOut(BaseModel):
    report_id: str
    offender_id: str
    offence: OffenceKind
    detection: Detection
    reporter_id: str | None
    tournament_id: str | None
    description: str
    filed_at: datetime
    status: ReportStatus
    closed_by: str | None
    closed_at: datetime | None

    @classmethod
    def of(cls, stored: StoredReport) -> ReportOut:
        r = stored.report
        return cls(
            report_id=r.report_id,
            offender_id=r.offender_id,
            offence=r.offence,
            detection=r.detection,
            reporter_id=r.reporter_id,
            tournament_id=r.tournament_id,
            description=r.description,
            filed_at=r.filed_at,
            status=stored.status,
            closed_by=stored.closed_by,
            closed_at=stored.closed_at,
        )


class DecisionIn(_In):
    """A staff decision (P-12.2 - P-12.4) on reports about one player."""

    report_ids: list[str] = Field(min_length=1)
    kind: SanctionKind
    context: SanctionContext = Field(description="During the tournament (P-12.3) or after it (P-12.4).")
    offence: OffenceKind = Field(description="As the staff classify it; a reporter's claim is not binding.")
    gravity: GravityName
    tournament_id: str | None = Field(None, description="The current tournament, required during a tournament.")
    duration: timedelta | None = Field(None, description="Temporary chat bans and bans only; whole seconds.")
    ban_scope: BanScope | None = Field(None, description="Temporary bans only: room, network or both.")
    ranking_penalty_positions: int = Field(0, ge=0, description="Ranking penalties only.")
    entries_forfeit: bool = Field(False, description="Cancelled registrations are not refunded (P-12.5).")
    reason: str = Field("", max_length=4000)

    @field_validator("duration")
    @classmethod
    def _whole_seconds(cls, duration: timedelta | None) -> timedelta | None:
        if duration is not None and duration.microseconds:
            raise ValueError("a duration is a whole number of seconds")
        return duration


class AppealOut(BaseModel):
    filed_at: datetime
    grounds: str
    outcome: AppealOutcome | None
    decided_at: datetime | None
    decided_by: str | None


class SanctionOut(BaseModel):
    sanction_id: str
    player_id: str
    kind: SanctionKind
    context: SanctionContext
    offence: OffenceKind
    gravity: GravityName
    prior_sanctions: int = Field(description="Standing sanctions for this offence when decided (repetition).")
    decided_at: datetime
    decided_by: str
    report_ids: list[str]
    room_id: str
    tournament_id: str | None
    duration: timedelta | None
    ends_at: datetime | None
    ban_scope: BanScope | None = Field(description="Where access is blocked: both for a permanent ban.")
    ranking_penalty_positions: int
    entries_forfeit: bool
    reason: str
    appeal: AppealOut | None
    lifted_at: datetime | None
    lifted_reason: LiftReason | None

    @classmethod
    def of(cls, stored: StoredSanction) -> SanctionOut:
        s, appeal = stored.record.sanction, stored.record.appeal
        return cls(
            sanction_id=s.sanction_id,
            player_id=s.player_id,
            kind=s.kind,
            context=s.context,
            offence=s.offence,
            gravity=gravity_name(s.gravity),
            prior_sanctions=stored.prior_sanctions,
            decided_at=s.decided_at,
            decided_by=s.decided_by,
            report_ids=list(s.report_ids),
            room_id=s.room_id,
            tournament_id=s.tournament_id,
            duration=s.duration,
            ends_at=s.ends_at,
            ban_scope=s.scope,
            ranking_penalty_positions=s.ranking_penalty_positions,
            entries_forfeit=s.entries_forfeit,
            reason=s.reason,
            appeal=None
            if appeal is None
            else AppealOut(
                filed_at=appeal.filed_at,
                grounds=appeal.grounds,
                outcome=appeal.outcome,
                decided_at=appeal.decided_at,
                decided_by=appeal.decided_by,
            ),
            lifted_at=stored.lifted_at,
            lifted_reason=stored.lifted_reason,
        )


class AppealIn(_In):
    grounds: str = Field(min_length=1, max_length=4000)


class AppealDecisionIn(_In):
    outcome: AppealOutcome


class SuggestionOut(BaseModel):
    """Advisory only (P-12.2): the staff decide."""

    kind: SanctionKind
    duration: timedelta | None
    ban_scope: BanScope | None
    severity: int

    @classmethod
    def of(cls, suggestion: SuggestedSanction) -> SuggestionOut:
        return cls(
            kind=suggestion.kind,
            duration=suggestion.duration,
            ban_scope=suggestion.ban_scope,
            severity=suggestion.severity,
        )


class ConductOut(BaseModel):
    player_id: str
    reports_by_offence: dict[OffenceKind, int] = Field(description="Reports filed about the player, upheld or not.")
    sanctions_by_offence: dict[OffenceKind, int] = Field(description="Standing sanctions: the repetition weighed.")
    sanctions: list[SanctionOut] = Field(description="The whole trail, oldest first, overturned ones included.")
    suggestion: SuggestionOut | None

    @classmethod
    def of(cls, conduct: Conduct) -> ConductOut:
        return cls(
            player_id=conduct.history.player_id,
            reports_by_offence=dict(conduct.history.reports_by_offence),
            sanctions_by_offence=dict(conduct.history.sanctions_by_offence),
            sanctions=[SanctionOut.of(s) for s in conduct.trail],
            suggestion=None if conduct.suggestion is None else SuggestionOut.of(conduct.suggestion),
        )


class SanctionInForceOut(BaseModel):
    sanction_id: str
    kind: SanctionKind
    ends_at: datetime | None = Field(description="None: permanent.")


class RestrictionsOut(BaseModel):
    """What the player may do now (P-12.5), for the gateway."""

    player_id: str
    room_id: str
    can_log_in: bool
    can_register: bool
    can_chat: bool
    sanctions: list[SanctionInForceOut]

    @classmethod
    def of(cls, player_id: str, found: Restrictions) -> RestrictionsOut:
        r = found.restrictions
        return cls(
            player_id=player_id,
            room_id=found.room_id,
            can_log_in=r.can_log_in,
            can_register=r.can_register,
            can_chat=r.can_chat,
            sanctions=[
                SanctionInForceOut(
                    sanction_id=s.record.sanction.sanction_id,
                    kind=s.record.sanction.kind,
                    ends_at=s.record.sanction.ends_at,
                )
                for s in found.in_force
            ],
        )
