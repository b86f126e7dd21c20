"""When a failed delivery is tried again, when it is given up, and when a failing endpoint is disabled: pure.

Exponential backoff with jitter: the n-th retry waits `base * 2**(n-1)`, capped at `cap`, times a factor drawn
uniformly from [0.5, 1) ("equal jitter": never less than half the backoff, so a dead receiver is not hammered,
and never in step across endpoints). A delivery is retried for `period` from its first attempt, then marked
failed. An endpoint whose attempts have all failed for `disable_after` is disabled and its partner told.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    base: timedelta
    cap: timedelta
    period: timedelta
    disable_after: timedelta

    def __post_init__(self) -> None:
        if self.base <= timedelta(0) or self.cap < self.base:
            raise ValueError("the backoff needs 0 < base <= cap")

    def backoff(self, failed_attempts: int, draw: float) -> timedelta:
        """The wait after the `failed_attempts`-th failure; `draw` is uniform in [0, 1) (injected randomness)."""
        if failed_attempts < 1 or not 0.0 <= draw < 1.0:
            raise ValueError("failed_attempts >= 1 and 0 <= draw < 1")
        exponent = min(failed_attempts - 1, 32)  # 2**32 * base is past any cap
        full = min(self.cap, self.base * (2**exponent))
        return full * (0.5 + draw / 2)

    def next_attempt(
        self, *, first_attempt_at: datetime, now: datetime, failed_attempts: int, draw: float
    ) -> datetime | None:
        """When to try again, or None: the retry period is over (the delivery has failed)."""
        due = now + self.backoff(failed_attempts, draw)
        return due if due <= first_attempt_at + self.period else None

    def should_disable(self, failing_since: datetime, now: datetime) -> bool:
        return now - failing_since >= self.disable_after
