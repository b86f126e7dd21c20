"""Rate limits per caller: a token bucket per principal, or per IP address for anonymous requests.

The buckets live in this process's memory: with N gateway instances behind a load balancer a client may get up
to N times the configured rate. That is the intended trade-off (no shared store on the hot path); the limits are
a guard against floods, not a billing quota. What protects a password is the per-account delay
(service/login_guard.py), which every instance reads from the database.
"""

from __future__ import annotations

from collections import OrderedDict

from platform_kit.clock import Clock

from gateway.domain.rate_limit import BucketPolicy, TokenBucket


class KeyedBuckets:
    """One token bucket per key (a principal, an address), all with the same policy."""

    def __init__(self, clock: Clock, policy: BucketPolicy, *, max_keys: int = 100_000) -> None:
        self._clock = clock
        self._policy = policy
        # Least recently seen keys are forgotten first, so memory stays bounded however many addresses a flood
        # comes from (a forgotten key starts again with a full bucket).
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._max_keys = max_keys

    def take(self, key: str) -> int:
        """0 when the request may go ahead (a token is spent), else the seconds to wait (for `Retry-After`)."""
        now = self._clock.now().timestamp()
        return self._bucket(key, now).take(now)

    def wait(self, key: str) -> int:
        """Like `take`, spending nothing: the request is charged later, if it turns out to count."""
        now = self._clock.now().timestamp()
        return self._bucket(key, now).wait(now)

    def charge(self, key: str) -> None:
        now = self._clock.now().timestamp()
        self._bucket(key, now).charge(now)

    def _bucket(self, key: str, now: float) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket.full(self._policy, now)
            self._buckets[key] = bucket
            if len(self._buckets) > self._max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket


class RateLimiter:
    def __init__(
        self,
        clock: Clock,
        *,
        authenticated: BucketPolicy,
        anonymous: BucketPolicy,
        max_clients: int = 100_000,
    ) -> None:
        self._buckets = {
            True: KeyedBuckets(clock, authenticated, max_keys=max_clients),
            False: KeyedBuckets(clock, anonymous, max_keys=max_clients),
        }

    def check(self, client_key: str, *, authenticated: bool) -> int:
        """0 when the request may go ahead, else the seconds to wait (for `Retry-After`)."""
        return self._buckets[authenticated].take(client_key)
