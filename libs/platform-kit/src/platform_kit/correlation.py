"""The correlation id of the work in progress: taken from `X-Request-ID`, carried into every event."""

from __future__ import annotations

import os
import random
from contextvars import ContextVar

_correlation_id: ContextVar[str | None] = ContextVar("correlation_id", default=None)

HEADER = "X-Request-ID"


def current() -> str | None:
    return _correlation_id.get()


def current_or_new() -> str:
    return _correlation_id.get() or new_id()


def new_id() -> str:
    """32 hex digits, as a UUID's: unique, not secret (it is echoed to the caller and written in every log line and
    event), so drawn from a generator of the kit's own, seeded from the OS once, rather than with a system call a
    request as `uuid4` makes (issue 14); its own, so that nothing seeding the module's generator repeats them."""
    return f"{_ids.getrandbits(128):032x}"


_ids = random.Random()
os.register_at_fork(after_in_child=_ids.seed)  # a forked worker draws its own, as `random`'s own generator does


def bind(correlation_id: str | None) -> object:
    """Set the correlation id for this task; returns a token for `reset`."""
    return _correlation_id.set(correlation_id)


def reset(token: object) -> None:
    _correlation_id.reset(token)  # type: ignore[arg-type]
