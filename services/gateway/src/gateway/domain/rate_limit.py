"""Token-bucket arithmetic: `burst` requests at once, then `rate` per second on average.

Pure: the caller passes the current time in seconds (from the injected clock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BucketPolicy:
    rate: float  # tokens added per second
    burst: int  # bucket capacity

    def __post_init__(self) -> None:
        if self.rate <= 0 or self.burst < 1:
            raise ValueError("a rate limit needs a positive rate and a burst of at least 1")


@dataclass(slots=True)
class TokenBucket:
    policy: BucketPolicy
    tokens: float
    updated_at: float

    @classmethod
    def full(cls, policy: BucketPolicy, now: float) -> TokenBucket:
        return cls(policy, float(policy.burst), now)

    def take(self, now: float, cost: int = 1) -> int:
        """Spend `cost` tokens if there are enough; returns 0 when allowed, else the whole seconds to wait
        (the `Retry-After` value, at least 1)."""
        wait = self.wait(now, cost)
        if not wait:
            self.tokens -= cost
        return wait

    def wait(self, now: float, cost: int = 1) -> int:
        """Like `take`, but spends nothing: for requests that are charged only once they turn out to count."""
        elapsed = max(0.0, now - self.updated_at)  # a clock that stepped back adds nothing
        self.tokens = min(float(self.policy.burst), self.tokens + elapsed * self.policy.rate)
        self.updated_at = max(self.updated_at, now)
        if self.tokens >= cost:
            return 0
        return max(1, math.ceil((cost - self.tokens) / self.policy.rate))

    def charge(self, now: float, cost: int = 1) -> None:
        """Spend `cost` tokens whether or not they are there: requests let through together, and charged
        afterwards, are all paid for (the bucket goes into debt and refills from there)."""
        self.wait(now, cost)  # refill up to now first
        self.tokens -= cost
