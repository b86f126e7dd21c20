"""The rating service's own portable SQL (the shared helpers are in platform_kit.sql)."""

from __future__ import annotations

from platform_kit.sql import is_postgres
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession


async def lock_for_transaction(session: AsyncSession, key: int) -> None:
    """One transaction at a time holds `key` across every replica, until it ends. SQLite needs nothing: its
    transactions take the database's write lock up front (see platform_kit.db)."""
    if is_postgres(session):
        await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
