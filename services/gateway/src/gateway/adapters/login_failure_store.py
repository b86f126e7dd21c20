"""Failed log-ins per account, inside the caller's transaction. Counting is compare-and-set: of two concurrent
attempts that saw the same count, only one may record itself, so parallel guesses cannot all slip through."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters.orm import login_failures


@dataclass(frozen=True, slots=True)
class FailedLogins:
    count: int
    last_at: datetime


async def get(session: AsyncSession, subject_id: str) -> FailedLogins | None:
    row = (
        await session.execute(
            select(login_failures.c.failed_attempts, login_failures.c.last_attempt_at).where(
                login_failures.c.subject_id == subject_id
            )
        )
    ).first()
    return FailedLogins(row.failed_attempts, row.last_attempt_at) if row else None


async def replace(session: AsyncSession, subject_id: str, seen: FailedLogins | None, count: int, now: datetime) -> bool:
    """Store `count` failures as of `now` if the account still has the `seen` ones; False when another attempt
    changed them first. A first failure is an insert: a concurrent one makes it raise IntegrityError."""
    if seen is None:
        await session.execute(
            login_failures.insert().values(subject_id=subject_id, failed_attempts=count, last_attempt_at=now)
        )
        return True
    result = await session.execute(
        update(login_failures)
        .where(login_failures.c.subject_id == subject_id, login_failures.c.failed_attempts == seen.count)
        .values(failed_attempts=count, last_attempt_at=now)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def clear(session: AsyncSession, subject_id: str) -> None:
    await session.execute(delete(login_failures).where(login_failures.c.subject_id == subject_id))
