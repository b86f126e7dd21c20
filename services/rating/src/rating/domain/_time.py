"""Shared guard: every instant the rating domain is given (sanctions registry, award days) is timezone-aware."""

from datetime import datetime


def require_aware(instant: datetime, what: str) -> None:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")
