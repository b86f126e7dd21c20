"""How long an account's next log-in attempt must wait after failed ones: an exponential delay, never a lock-out.

The first `free_attempts` failures cost nothing (typos). After that each attempt must wait `base_delay * 2^k`
since the last one (k = failures beyond the free ones), at most `max_delay`: a guesser gets a few tries an hour,
while the owner, whom a guesser can make wait at most `max_delay` at a time, is never shut out for good. A
correct password ends it (the caller forgets the failures); so does a quiet `forget_after`.

Pure: the caller passes the account's failures, the time of the last one, and the current time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# 2^30 seconds is decades: any realistic max_delay is reached long before, and the power stays small.
_MAX_EXPONENT = 30


@dataclass(frozen=True, slots=True)
class LoginThrottlePolicy:
    free_attempts: int = 5
    base_delay: timedelta = timedelta(seconds=1)
    max_delay: timedelta = timedelta(minutes=15)
    forget_after: timedelta = timedelta(days=1)

    def failures(self, failed: int, last_at: datetime, now: datetime) -> int:
        """The failures that still count: none once the account has been quiet for `forget_after`."""
        return 0 if now - last_at >= self.forget_after else failed

    def delay_after(self, failures: int) -> timedelta:
        if failures < self.free_attempts:
            return timedelta(0)
        exponent = min(failures - self.free_attempts, _MAX_EXPONENT)
        return min(self.max_delay, self.base_delay * 2**exponent)

    def wait(self, failed: int, last_at: datetime, now: datetime) -> timedelta:
        """How much longer the next attempt must wait; zero when it may go ahead."""
        delay = self.delay_after(self.failures(failed, last_at, now))
        # A clock that stepped back never makes the wait longer than the delay itself.
        return min(delay, max(timedelta(0), last_at + delay - now))
