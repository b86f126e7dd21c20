"""`after_commit` callbacks run once each, in the order registered, when their transaction commits: never for a
rollback, never again for a later commit."""

from __future__ import annotations

import pytest
from platform_kit.db import Database, after_commit
from sqlalchemy import text


async def test_callbacks_run_once_in_order_after_the_commit_and_never_for_a_rollback(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    ran: list[str] = []
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as session:
                after_commit(session, lambda: ran.append("rolled back"))
                raise RuntimeError("rolled back")

        async with db.transaction() as session:
            after_commit(session, lambda: ran.append("first"))
            after_commit(session, lambda: ran.append("second"))
            await session.execute(text("SELECT 1"))
            assert ran == [], "ran before the commit"
        assert ran == ["first", "second"]

        await session.commit()  # the same session again, nothing registered since
        assert ran == ["first", "second"]
    finally:
        await db.dispose()
