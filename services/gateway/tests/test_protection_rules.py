"""Pure protection rules (issue 17, gateway.domain.protection): a self-exclusion is in force at once and only a
longer one replaces it; the session clock, its reality checks and its limit."""

from datetime import UTC, datetime, timedelta

import pytest
from gateway.domain.protection import (
    ExclusionTerm,
    SelfExclusion,
    SessionClock,
    SessionRules,
    may_replace,
    play_refusal,
)

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("term", "days"), [("30_days", 30), ("60_days", 60), ("90_days", 90)])
def test_a_temporary_self_exclusion_is_in_force_from_now_for_its_term(term: str, days: int) -> None:
    exclusion = SelfExclusion.starting(ExclusionTerm(term), NOW)
    assert exclusion.in_force_at(NOW)
    assert exclusion.in_force_at(NOW + timedelta(days=days) - timedelta(seconds=1))
    assert not exclusion.in_force_at(NOW + timedelta(days=days))


def test_a_permanent_self_exclusion_never_ends_and_outlasts_every_other() -> None:
    permanent = SelfExclusion.starting(ExclusionTerm.PERMANENT, NOW)
    assert permanent.ends_at is None and permanent.in_force_at(NOW + timedelta(days=36_500))
    later = NOW + timedelta(days=1)
    for term in ExclusionTerm:
        replaced = may_replace(permanent, SelfExclusion.starting(term, later), later)
        assert replaced is (term is ExclusionTerm.PERMANENT)


def test_a_self_exclusion_in_force_is_replaced_only_by_one_ending_no_earlier() -> None:
    sixty = SelfExclusion.starting(ExclusionTerm.DAYS_60, NOW)
    later = NOW + timedelta(days=10)
    assert not may_replace(sixty, SelfExclusion.starting(ExclusionTerm.DAYS_30, later), later)
    assert may_replace(sixty, SelfExclusion.starting(ExclusionTerm.DAYS_60, later), later)
    assert may_replace(sixty, SelfExclusion.starting(ExclusionTerm.PERMANENT, later), later)
    over = NOW + timedelta(days=60)
    assert may_replace(sixty, SelfExclusion.starting(ExclusionTerm.DAYS_30, over), over)  # ended: a new one


def test_the_reality_check_falls_on_each_multiple_of_the_interval() -> None:
    rules = SessionRules(reality_check_minutes=20)
    assert SessionClock(NOW, NOW, rules).next_reality_check_at == NOW + timedelta(minutes=20)
    at_45 = SessionClock(NOW, NOW + timedelta(minutes=45), rules)
    assert at_45.next_reality_check_at == NOW + timedelta(minutes=60)
    assert SessionClock(NOW, NOW, SessionRules()).next_reality_check_at is None


def test_play_is_refused_once_the_session_limit_is_reached_and_self_exclusion_comes_first() -> None:
    rules = SessionRules(session_limit_minutes=30)
    before = SessionClock(NOW, NOW + timedelta(minutes=29), rules)
    at = SessionClock(NOW, NOW + timedelta(minutes=30), rules)
    assert play_refusal(None, before, before.now) is None
    refusal = play_refusal(None, at, at.now)
    assert refusal is not None and refusal.code == "session_time_limit_reached"
    excluded = SelfExclusion.starting(ExclusionTerm.DAYS_30, NOW)
    refusal = play_refusal(excluded, at, at.now)
    assert refusal is not None and (refusal.code, refusal.until) == ("player_self_excluded", excluded.ends_at)
    assert play_refusal(None, None, at.now) is None  # no session of the player's own: no session limit
