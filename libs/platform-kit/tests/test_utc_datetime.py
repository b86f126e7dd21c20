"""`UtcDateTime`: every service's instants (and the kit's outbox and inbox) go in and come out aware, in UTC."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from platform_kit.db import Database, UtcDateTime
from sqlalchemy import Column, Integer, MetaData, Table, select, text
from sqlalchemy.exc import StatementError

metadata = MetaData()
moments = Table("moments", metadata, Column("id", Integer, primary_key=True), Column("at", UtcDateTime))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path}/moments.db")
    async with database.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
    yield database
    await database.dispose()


async def test_sqlite_hands_back_the_instant_aware_in_utc(db: Database) -> None:
    paris_evening = datetime(2025, 5, 1, 20, 0, tzinfo=timezone(timedelta(hours=2)))
    async with db.transaction() as session:
        await session.execute(moments.insert().values(id=1, at=paris_evening))
    async with db.transaction() as session:
        back = await session.scalar(select(moments.c.at).where(moments.c.id == 1))
        stored = await session.scalar(text("SELECT at FROM moments WHERE id = 1"))
    assert back == paris_evening
    assert back is not None and back.tzinfo is UTC and back.hour == 18
    # SQLite keeps no offset: the column holds the UTC wall clock, so instants compare in SQL as they should.
    assert str(stored).startswith("2025-05-01 18:00:00")


async def test_none_stays_none(db: Database) -> None:
    async with db.transaction() as session:
        await session.execute(moments.insert().values(id=1, at=None))
    async with db.transaction() as session:
        assert await session.scalar(select(moments.c.at).where(moments.c.id == 1)) is None


async def test_a_naive_datetime_is_refused(db: Database) -> None:
    with pytest.raises(StatementError, match="naive datetime"):
        async with db.transaction() as session:
            await session.execute(moments.insert().values(id=1, at=datetime(2025, 5, 1, 20, 0)))
    async with db.transaction() as session:
        assert await session.scalar(select(moments.c.id)) is None
