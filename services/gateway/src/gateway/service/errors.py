"""Refusals of the gateway that carry HTTP headers besides the problem body (the kit's handler sends them)."""

from __future__ import annotations

from typing import Any

from platform_kit.errors import ProblemError


class Unauthenticated(ProblemError):
    """401: no credentials, or credentials that do not hold (expired, revoked, unknown)."""

    status = 401

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(code, message, headers={"WWW-Authenticate": 'Bearer realm="gateway"'}, **details)


class RateLimited(ProblemError):
    status = 429

    def __init__(
        self, retry_after: int, code: str = "rate_limited", message: str = "Too many requests; try again later."
    ) -> None:
        super().__init__(code, message, headers={"Retry-After": str(retry_after)}, retry_after=retry_after)


def too_many_failed_logins(retry_after: int) -> RateLimited:
    """The refusal of a log-in attempt while its account (or address) must wait: the same whether the password
    would have been right or not, so that waiting attempts reveal nothing."""
    return RateLimited(retry_after, "too_many_failed_logins", "Too many failed log-ins; wait before trying again.")
