"""The correlation id of the work in progress: taken from `X-Request-ID`, carried into every event."""

from __future__ import annotations

import uuid
from contextvars import ContextVar

_correlation_id: ContextVar[str | None] = ContextVar("correlation_id", default=None)

HEADER = "X-Request-ID"


def current() -> str | None:
    return _correlation_id.get()


def current_or_new() -> str:
    return _correlation_id.get() or new_id()


def new_id() -> str:
    return uuid.uuid4().hex


def bind(correlation_id: str | None) -> object:
    """Set the correlation id for this task; returns a token for `reset`."""
    return _correlation_id.set(correlation_id)


def reset(token: object) -> None:
    _correlation_id.reset(token)  # type: ignore[arg-type]
