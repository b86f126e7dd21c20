"""Rate limits per caller: a token bucket per principal, or per IP address for anonymous requests.

The buckets live in this process's memory: with N gateway instances behind a load balancer a client may get up
to N times the configured rate. That is the intended trade-off (no shared store on the hot path); the limits are
a guard against floods and password guessing, not a billing quota.
"""

from __future__ import annotations

from collections import OrderedDict

from platform_kit.clock import Clock

from gateway.domain.rate_limit import BucketPolicy, TokenBucket


class RateLimiter:
    def __init__(
        self,
        clock: Clock,
        *,
        authenticated: BucketPolicy,
        anonymous: BucketPolicy,
        max_clients: int = 100_000,
    ) -> None:
        self._clock = clock
        self._policies = {True: authenticated, False: anonymous}
        # Least recently seen clients are forgotten first, so memory stays bounded however many addresses
        # a flood comes from (a forgotten client starts again with a full bucket).
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._max_clients = max_clients

    def check(self, client_key: str, *, authenticated: bool) -> int:
        """0 when the request may go ahead, else the seconds to wait (for `Retry-After`)."""
        now = self._clock.now().timestamp()
        key = f"{'auth' if authenticated else 'anon'}:{client_key}"
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket.full(self._policies[authenticated], now)
            self._buckets[key] = bucket
            if len(self._buckets) > self._max_clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take(now)
