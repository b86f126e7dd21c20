"""Readers and the write lock on SQLite (standalone mode): `Database.sessions()` reads beside a writer."""

from pathlib import Path

from platform_kit.db import Database
from sqlalchemy import text


async def test_a_read_is_answered_while_a_writer_holds_the_lock_and_sees_what_was_committed(tmp_path: Path) -> None:
    """Were a reader to begin as a writer does (BEGIN IMMEDIATE), it would queue behind the open transaction —
    here, which waits for it, until the busy timeout failed it with "database is locked"."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/reads.db")
    try:
        async with db.transaction() as session:
            await session.execute(text("CREATE TABLE t (a INTEGER)"))
            await session.execute(text("INSERT INTO t VALUES (1)"))
        async with db.transaction() as writer:
            await writer.execute(text("INSERT INTO t VALUES (2)"))
            async with db.sessions() as reader:
                seen = await reader.scalar(text("SELECT count(*) FROM t"))
        async with db.sessions() as reader:
            after = await reader.scalar(text("SELECT count(*) FROM t"))
    finally:
        await db.dispose()
    assert (seen, after) == (1, 2)
