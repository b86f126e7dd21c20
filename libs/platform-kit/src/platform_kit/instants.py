"""Instants on the platform are aware datetimes in UTC: the one conversion every service uses to get there.

Columns go through `platform_kit.db.UtcDateTime`, which applies it to what the database hands back. Outside
the database a service meets instants as ISO-8601 text (some event payloads carry them so) or as an aware
datetime in another offset; `as_utc` is for those. Invariant: what it returns is aware, with `tzinfo is UTC`,
and names the same instant as its argument.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["as_utc"]


def as_utc(moment: datetime) -> datetime:
    """`moment` in UTC. A naive datetime is read as a UTC wall clock: the platform's clocks, stores and
    messages are all in UTC, so an instant that lost its offset (SQLite keeps none) lost nothing else."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
