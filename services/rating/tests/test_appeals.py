"""The appeal trail of a sanction (P-12, interpretation in appeals.py)."""

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from rating.domain import (
    AppealOutcome,
    InvalidAppeal,
    SanctionKind,
    SanctionRecord,
    restrictions_at,
    tournament_effects,
)

Records = Callable[..., SanctionRecord]
HOUR = timedelta(hours=1)


def test_p12_an_appeal_does_not_suspend_the_sanction(record_of: Records, t0: datetime) -> None:
    appealed = record_of(SanctionKind.PERMANENT_BAN).file_appeal(t0 + HOUR, "I was hacked")
    assert appealed.appeal is not None and appealed.appeal.outcome is None
    assert not restrictions_at([appealed], t0 + 2 * HOUR, "room-a").can_log_in


def test_p12_an_overturned_sanction_stops_at_the_appeal_decision(record_of: Records, t0: datetime) -> None:
    record = (
        record_of(SanctionKind.PERMANENT_BAN)
        .file_appeal(t0 + HOUR, "I was hacked")
        .decide_appeal(AppealOutcome.SANCTION_OVERTURNED, t0 + 3 * HOUR, "staff-2")
    )
    assert record.overturned_at == t0 + 3 * HOUR
    assert record.in_force_at(t0 + 2 * HOUR)  # the trail keeps what was in force at the time
    assert not record.in_force_at(t0 + 3 * HOUR)
    assert restrictions_at([record], t0 + 4 * HOUR, "room-a").can_log_in


def test_p12_an_upheld_sanction_stands(record_of: Records, t0: datetime) -> None:
    record = (
        record_of(SanctionKind.TOURNAMENT_DISQUALIFICATION)
        .file_appeal(t0 + HOUR, "unfair")
        .decide_appeal(AppealOutcome.SANCTION_UPHELD, t0 + 2 * HOUR, "staff-2")
    )
    assert record.overturned_at is None and record.stands_at(t0 + 3 * HOUR)
    kept = tournament_effects(
        [record], "t-live", room_id="room-a", registered_at=t0 - HOUR, finished_at=None, at=t0 + 3 * HOUR
    )
    assert kept.disqualified


def test_p12_appeals_are_filed_once_after_the_decision_and_decided_after_filing(
    record_of: Records, t0: datetime
) -> None:
    record = record_of()
    with pytest.raises(InvalidAppeal):
        record.file_appeal(t0 - HOUR, "early")
    with pytest.raises(InvalidAppeal):
        record.decide_appeal(AppealOutcome.SANCTION_UPHELD, t0 + HOUR, "staff-2")  # nothing filed
    filed = record.file_appeal(t0 + HOUR, "grounds")
    with pytest.raises(InvalidAppeal):
        filed.file_appeal(t0 + 2 * HOUR, "again")
    with pytest.raises(InvalidAppeal):
        filed.decide_appeal(AppealOutcome.SANCTION_UPHELD, t0, "staff-2")  # before filing
    decided = filed.decide_appeal(AppealOutcome.SANCTION_UPHELD, t0 + 2 * HOUR, "staff-2")
    with pytest.raises(InvalidAppeal):
        decided.decide_appeal(AppealOutcome.SANCTION_OVERTURNED, t0 + 3 * HOUR, "staff-3")
    assert decided.appeal is not None and decided.appeal.decided_by == "staff-2"
