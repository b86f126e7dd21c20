"""Password checks of log-ins, throttled per account and per address.

Per account (the database, so every gateway instance sees the same count): after a few failures each attempt
waits an exponentially growing delay, capped (domain/login_throttle.py). An attempt counts as failed from the
moment it is let through, before the password is checked, so concurrent guesses cannot all pass on the same
count; a correct password clears the count. An attempt that must wait is refused with 429 without looking at
the password: right or wrong, the answer is the same.

Per address (this instance's memory, like the other rate limits): a small bucket of failures, so that one
address cannot spread guesses over many accounts. Only a failure is charged, once it has failed: the players
behind one carrier NAT (or a test harness's bots) may log in together in any number.

Unknown logins are not counted per account (nothing to protect, and no row per invented name), only per address;
that a throttled login exists is no secret worth keeping, since sign-up says which nicknames and emails are taken.
"""

from __future__ import annotations

import math
from typing import Protocol

from sqlalchemy.exc import IntegrityError

from gateway.adapters import login_failure_store
from gateway.domain.login_throttle import LoginThrottlePolicy
from gateway.domain.rate_limit import BucketPolicy
from gateway.service.context import Context
from gateway.service.errors import Unauthenticated, too_many_failed_logins
from gateway.service.rate_limiter import KeyedBuckets

# 20 failures at once per address, then one every 30 seconds: plenty for the players behind one carrier NAT.
ADDRESS_FAILURES = BucketPolicy(rate=1 / 30, burst=20)
# Concurrent attempts on one account that keep beating this one to the count: refused rather than retried forever.
_CLAIM_TRIES = 3


class Account(Protocol):
    """A player or a staff member, as stored."""

    @property
    def id(self) -> str: ...

    @property
    def password_hash(self) -> str: ...


def invalid_credentials() -> Unauthenticated:
    # One answer for an unknown account and a wrong password: the difference would reveal who is registered.
    return Unauthenticated("invalid_credentials", "Wrong login or password.")


class LoginGuard:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._policy = LoginThrottlePolicy()
        self._addresses = KeyedBuckets(context.clock, ADDRESS_FAILURES)

    async def check(self, address: str, account: Account | None, password: str) -> None:
        """Returns when `password` is right for `account` (None: the login matched none); raises 401
        `invalid_credentials` when it is not, 429 `too_many_failed_logins` when the attempt must wait."""
        retry_after = self._addresses.wait(address)
        if retry_after:
            raise too_many_failed_logins(retry_after)
        if account is not None:
            await self._count_attempt(account.id)
        # An unknown account is checked against a decoy hash: as slow as a wrong password, and never right.
        if not await self._context.passwords.verify(account.password_hash if account else None, password):
            self._addresses.charge(address)
            raise invalid_credentials()
        assert account is not None
        async with self._context.units.unit() as uow:
            await login_failure_store.clear(uow.session, account.id)

    async def _count_attempt(self, subject_id: str) -> None:
        """Count the attempt as a failure if the account may be tried now; 429 if it must wait."""
        for _ in range(_CLAIM_TRIES):
            try:
                if await self._try_to_count(subject_id):
                    return
            except IntegrityError:
                pass  # a concurrent first attempt inserted the account's row: read it again
        raise too_many_failed_logins(1)

    async def _try_to_count(self, subject_id: str) -> bool:
        now = self._context.clock.now()
        async with self._context.units.unit() as uow:
            seen = await login_failure_store.get(uow.session, subject_id)
            failures = 0
            if seen is not None:
                wait = self._policy.wait(seen.count, seen.last_at, now)
                if wait:
                    raise too_many_failed_logins(max(1, math.ceil(wait.total_seconds())))
                failures = self._policy.failures(seen.count, seen.last_at, now)
            return await login_failure_store.replace(uow.session, subject_id, seen, failures + 1, now)
