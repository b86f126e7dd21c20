"""The player's history the staff see, and the suggested sanction from gravity and repetition (P-12.2)."""

from collections.abc import Callable
from datetime import datetime, timedelta
from itertools import product

from rating.domain import (
    AppealOutcome,
    ConductHistory,
    Gravity,
    OffenceKind,
    Report,
    SanctionContext,
    SanctionKind,
    SanctionRecord,
    conduct_history,
    impose,
    suggest_sanction,
)

Records = Callable[..., SanctionRecord]
DAY = timedelta(days=1)
LANGUAGE, PRIVATE = OffenceKind.OFFENSIVE_LANGUAGE, OffenceKind.PRIVATE_INFORMATION


def test_p12_2_history_counts_reports_and_standing_sanctions_by_offence(
    record_of: Records, report_of: Callable[..., Report], t0: datetime
) -> None:
    reports = [
        report_of("r1"),
        report_of("r2", offence=PRIVATE),
        report_of("r3", offender="someone-else"),
        report_of("r4", filed_at=t0 + 10 * DAY),  # after the moment we look from
    ]
    overturned = (
        record_of(SanctionKind.WRITTEN_WARNING, sanction_id="s3", offence=PRIVATE)
        .file_appeal(t0 + DAY, "not me")
        .decide_appeal(AppealOutcome.SANCTION_OVERTURNED, t0 + 2 * DAY, "staff-2")
    )
    records = [
        record_of(SanctionKind.TEMPORARY_CHAT_BAN, sanction_id="s2", decided_at=t0 + DAY),
        record_of(SanctionKind.WRITTEN_WARNING, sanction_id="s1"),
        overturned,
        record_of(SanctionKind.PERMANENT_BAN, sanction_id="s4", decided_at=t0 + 20 * DAY),
    ]
    history = conduct_history("bad", reports, records, t0 + 5 * DAY)
    assert dict(history.reports_by_offence) == {LANGUAGE: 1, PRIVATE: 1}
    assert dict(history.sanctions_by_offence) == {LANGUAGE: 2}
    assert [r.sanction.sanction_id for r in history.sanctions] == ["s1", "s3", "s2"]  # trail, oldest first
    assert history.repetitions(LANGUAGE) == 2 and history.repetitions(PRIVATE) == 0


def clean(player: str = "bad") -> ConductHistory:
    return ConductHistory(player, {}, {}, ())


def repeated(offence: OffenceKind, times: int) -> ConductHistory:
    return ConductHistory("bad", {offence: times}, {offence: times}, ())


def test_p12_2_a_first_minor_offence_suggests_a_written_warning() -> None:
    suggestion = suggest_sanction(LANGUAGE, Gravity.MINOR, SanctionContext.DURING_TOURNAMENT, clean())
    assert suggestion.kind is SanctionKind.WRITTEN_WARNING


def test_p12_2_repetition_of_the_same_offence_escalates() -> None:
    def kinds(offence: OffenceKind, times: int) -> SanctionKind:
        context = SanctionContext.DURING_TOURNAMENT
        return suggest_sanction(LANGUAGE, Gravity.MINOR, context, repeated(offence, times)).kind

    assert [kinds(LANGUAGE, n) for n in range(7)] == [
        SanctionKind.WRITTEN_WARNING,
        SanctionKind.TEMPORARY_CHAT_BAN,
        SanctionKind.TEMPORARY_CHAT_BAN,
        SanctionKind.TOURNAMENT_DISQUALIFICATION,
        SanctionKind.TEMPORARY_BAN,
        SanctionKind.PERMANENT_BAN,
        SanctionKind.PERMANENT_BAN,
    ]
    assert kinds(PRIVATE, 3) is SanctionKind.WRITTEN_WARNING  # other offences are not repetitions


def test_p12_2_gravity_raises_the_suggestion_and_the_context_picks_the_ladder() -> None:
    after = SanctionContext.AFTER_TOURNAMENT
    assert suggest_sanction(LANGUAGE, Gravity.SERIOUS, after, repeated(LANGUAGE, 1)).kind is (
        SanctionKind.PENDING_TOURNAMENTS_DISQUALIFICATION
    )
    assert suggest_sanction(PRIVATE, Gravity.VERY_SERIOUS, after, clean()).duration == timedelta(days=30)


def test_p12_2_every_suggestion_is_a_decision_the_rules_accept(report_of: Callable[..., Report], t0: datetime) -> None:
    # Exhaustive: every offence, gravity, context and repetition count up to past the last step.
    for offence, gravity, context, times in product(OffenceKind, Gravity, SanctionContext, range(8)):
        suggestion = suggest_sanction(offence, gravity, context, repeated(offence, times))
        decision = impose(
            [report_of()],
            sanction_id="s",
            kind=suggestion.kind,
            context=context,
            offence=offence,
            gravity=gravity,
            decided_at=t0,
            decided_by="staff",
            room_id="room-a",
            tournament_id="t-live",
            duration=suggestion.duration,
            ban_scope=suggestion.ban_scope,
        )
        assert decision.kind is suggestion.kind
