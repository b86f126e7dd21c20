"""Reports, sanction kinds and the rules a staff decision must follow (P-12.1 - P-12.4)."""

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from rating.domain import (
    SANCTION_RULES,
    BanScope,
    Detection,
    Gravity,
    InvalidReport,
    InvalidSanction,
    OffenceKind,
    Report,
    Sanction,
    SanctionContext,
    SanctionKind,
    impose,
)

K = SanctionKind
DURING, AFTER = SanctionContext.DURING_TOURNAMENT, SanctionContext.AFTER_TOURNAMENT


def test_p12_1_offences_cover_language_private_information_and_others() -> None:
    assert set(OffenceKind) == {
        OffenceKind.OFFENSIVE_LANGUAGE,
        OffenceKind.PRIVATE_INFORMATION,
        OffenceKind.OTHER,
    }


def test_p12_2_a_player_report_names_its_reporter_an_operator_check_does_not(
    report_of: Callable[..., Report],
) -> None:
    assert report_of().reporter_id == "victim"
    assert report_of(detection=Detection.OPERATOR_CHECK, reporter_id=None).reporter_id is None
    with pytest.raises(InvalidReport):
        report_of(reporter_id=None)
    with pytest.raises(InvalidReport):
        report_of(detection=Detection.OPERATOR_CHECK)
    with pytest.raises(InvalidReport):
        report_of(reporter_id="bad")  # reporting oneself


def test_p12_2_report_times_are_timezone_aware(report_of: Callable[..., Report]) -> None:
    with pytest.raises(ValueError):
        report_of(filed_at=datetime(2024, 5, 1, 20, 0))


def test_p12_3_kinds_available_during_a_tournament() -> None:
    during = {kind for kind, rule in SANCTION_RULES.items() if DURING in rule.contexts}
    assert during == {
        K.WRITTEN_WARNING,
        K.TEMPORARY_CHAT_BAN,
        K.PERMANENT_CHAT_BAN,
        K.RANKING_PENALTY,
        K.TOURNAMENT_DISQUALIFICATION,
        K.TEMPORARY_BAN,
        K.PERMANENT_BAN,
    }


def test_p12_4_kinds_available_after_a_tournament() -> None:
    after = {kind for kind, rule in SANCTION_RULES.items() if AFTER in rule.contexts}
    assert after == {
        K.WRITTEN_WARNING,
        K.TEMPORARY_CHAT_BAN,
        K.PERMANENT_CHAT_BAN,
        K.PENDING_TOURNAMENTS_DISQUALIFICATION,
        K.TEMPORARY_BAN,
        K.PERMANENT_BAN,
    }


@pytest.mark.parametrize("kind", [K.RANKING_PENALTY, K.TOURNAMENT_DISQUALIFICATION])
def test_p12_3_current_tournament_sanctions_cannot_be_imposed_after_it(
    sanction_of: Callable[..., Sanction], kind: SanctionKind
) -> None:
    with pytest.raises(InvalidSanction):
        sanction_of(kind, context=AFTER)


def test_p12_4_removal_from_pending_tournaments_is_a_decision_after_the_tournament(
    sanction_of: Callable[..., Sanction],
) -> None:
    with pytest.raises(InvalidSanction):
        sanction_of(K.PENDING_TOURNAMENTS_DISQUALIFICATION, context=DURING)


def test_p12_3_a_decision_during_a_tournament_names_it(sanction_of: Callable[..., Sanction]) -> None:
    with pytest.raises(InvalidSanction):
        sanction_of(K.WRITTEN_WARNING, tournament_id=None)
    assert sanction_of(K.WRITTEN_WARNING, context=AFTER, tournament_id=None).tournament_id is None


def test_p12_3_p12_4_which_kinds_are_temporary_permanent_or_one_off() -> None:
    temporary = {k for k, r in SANCTION_RULES.items() if r.temporary}
    permanent = {k for k, r in SANCTION_RULES.items() if r.permanent}
    assert temporary == {K.TEMPORARY_CHAT_BAN, K.TEMPORARY_BAN}
    assert permanent == {K.PERMANENT_CHAT_BAN, K.PERMANENT_BAN}


@pytest.mark.parametrize("kind", [K.TEMPORARY_CHAT_BAN, K.TEMPORARY_BAN])
def test_p12_3_temporary_sanctions_need_a_positive_duration(
    sanction_of: Callable[..., Sanction], kind: SanctionKind
) -> None:
    assert sanction_of(kind).ends_at == sanction_of(kind).decided_at + timedelta(days=1)
    for duration in (None, timedelta(0), timedelta(seconds=-1)):
        with pytest.raises(InvalidSanction):
            sanction_of(kind, duration=duration)


@pytest.mark.parametrize(
    "kind",
    [K.WRITTEN_WARNING, K.PERMANENT_CHAT_BAN, K.RANKING_PENALTY, K.TOURNAMENT_DISQUALIFICATION, K.PERMANENT_BAN],
)
def test_p12_3_other_sanctions_take_no_duration(sanction_of: Callable[..., Sanction], kind: SanctionKind) -> None:
    assert sanction_of(kind).ends_at is None
    with pytest.raises(InvalidSanction):
        sanction_of(kind, duration=timedelta(days=1))


def test_p12_3_a_temporary_ban_chooses_room_network_or_both(sanction_of: Callable[..., Sanction]) -> None:
    for scope in BanScope:
        assert sanction_of(K.TEMPORARY_BAN, ban_scope=scope).scope is scope
    with pytest.raises(InvalidSanction):
        sanction_of(K.TEMPORARY_BAN, ban_scope=None)


def test_p12_3_a_permanent_ban_is_from_both_room_and_network(sanction_of: Callable[..., Sanction]) -> None:
    assert sanction_of(K.PERMANENT_BAN).scope is BanScope.ROOM_AND_NETWORK
    with pytest.raises(InvalidSanction):
        sanction_of(K.PERMANENT_BAN, ban_scope=BanScope.ROOM)


def test_p12_3_a_ranking_penalty_and_only_it_moves_the_player_down(sanction_of: Callable[..., Sanction]) -> None:
    assert sanction_of(K.RANKING_PENALTY).ranking_penalty_positions == 3
    with pytest.raises(InvalidSanction):
        sanction_of(K.RANKING_PENALTY, ranking_penalty_positions=0)
    with pytest.raises(InvalidSanction):
        sanction_of(K.WRITTEN_WARNING, ranking_penalty_positions=2)


def test_p12_5_only_sanctions_removing_registrations_can_make_entries_forfeit(
    sanction_of: Callable[..., Sanction],
) -> None:
    assert sanction_of(K.PERMANENT_BAN, entries_forfeit=True).entries_forfeit
    with pytest.raises(InvalidSanction):
        sanction_of(K.TEMPORARY_CHAT_BAN, entries_forfeit=True)


def test_p12_2_a_decision_answers_reports_about_one_player_filed_before_it(
    report_of: Callable[..., Report], t0: datetime
) -> None:
    decide: dict[str, Any] = {
        "sanction_id": "s",
        "kind": K.WRITTEN_WARNING,
        "context": AFTER,
        "offence": OffenceKind.OTHER,
        "gravity": Gravity.MINOR,
        "decided_at": t0,
        "decided_by": "staff",
        "room_id": "room-a",
    }
    both = impose([report_of("r1"), report_of("r2", reporter_id="other")], **decide)
    assert both.report_ids == ("r1", "r2") and both.player_id == "bad"
    with pytest.raises(InvalidSanction):
        impose([], **decide)
    with pytest.raises(InvalidSanction):
        impose([report_of("r1"), report_of("r2", offender="someone-else")], **decide)
    with pytest.raises(InvalidSanction):
        impose([report_of(filed_at=t0 + timedelta(seconds=1))], **decide)
