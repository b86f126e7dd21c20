"""Pure deposit-limit rules (issue 17, wallet.domain.deposit_limits): stricter at once, looser after the
cooling-off, and the tightest window decides what remains."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from wallet.domain.deposit_limits import NO_LIMIT, Period, PeriodLimit, change, refusal

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
COOL = timedelta(hours=24)


def test_a_first_or_lower_limit_applies_at_once_and_drops_a_pending_raise() -> None:
    first = change(NO_LIMIT, 5_000, NOW, COOL)
    assert first is not None and first.limit == PeriodLimit(5_000) and first.effective_from == NOW
    pending = PeriodLimit(5_000, 9_000, NOW + COOL)
    lower = change(pending, 3_000, NOW, COOL)
    assert lower is not None and lower.limit == PeriodLimit(3_000)


def test_a_higher_limit_or_none_waits_for_the_cooling_off() -> None:
    for looser in (9_000, None):
        raised = change(PeriodLimit(5_000), looser, NOW, COOL)
        assert raised is not None and raised.effective_from == NOW + COOL
        assert raised.limit.in_force_at(NOW + COOL - timedelta(seconds=1)) == 5_000
        assert raised.limit.in_force_at(NOW + COOL) == looser


def test_asking_for_the_limit_in_force_changes_nothing_or_cancels_the_raise() -> None:
    assert change(PeriodLimit(5_000), 5_000, NOW, COOL) is None
    kept = change(PeriodLimit(5_000, 9_000, NOW + COOL), 5_000, NOW, COOL)
    assert kept is not None and kept.limit == PeriodLimit(5_000)


def test_the_tightest_window_gives_the_remaining_amount() -> None:
    limits = {Period.DAY: PeriodLimit(5_000), Period.MONTH: PeriodLimit(6_000)}
    refused = refusal(limits, {Period.DAY: 1_000, Period.MONTH: 4_000}, 2_500, NOW)
    assert refused is not None and refused.details == {"period": "month", "limit": 6_000, "remaining": 2_000}
    assert refusal(limits, {Period.DAY: 1_000, Period.MONTH: 4_000}, 2_000, NOW) is None
    assert refusal({}, {}, 10**9, NOW) is None
