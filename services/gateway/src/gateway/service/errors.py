"""Refusals of the gateway that carry HTTP headers besides the problem body."""

from __future__ import annotations

from typing import Any

from platform_kit.errors import ProblemError


class ProblemWithHeaders(ProblemError):
    def __init__(self, code: str, message: str, *, headers: dict[str, str], **details: Any) -> None:
        super().__init__(code, message, **details)
        self.headers = headers


class Unauthenticated(ProblemWithHeaders):
    """401: no credentials, or credentials that do not hold (expired, revoked, unknown)."""

    status = 401

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(code, message, headers={"WWW-Authenticate": 'Bearer realm="gateway"'}, **details)


class RateLimited(ProblemWithHeaders):
    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            "rate_limited",
            "Too many requests; try again later.",
            headers={"Retry-After": str(retry_after)},
            retry_after=retry_after,
        )
