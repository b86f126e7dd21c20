"""The outbox wakes its relay once the events' transaction has committed, never before and never for a rollback:
a relay woken before the commit finds nothing and sleeps its idle interval with the events waiting (issue 14)."""

from __future__ import annotations

import pytest
from messaging_fixture import CreditGranted, create_schema, metadata
from platform_kit.db import Database
from platform_kit.outbox import Outbox


async def test_the_relay_is_woken_by_the_commit_once_and_not_by_a_rollback(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    await create_schema(db)
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as session:
                await outbox.add(session, CreditGranted(account="a", amount=1))
                raise RuntimeError("rolled back")
        assert not outbox.written.is_set()

        async with db.transaction() as session:
            await outbox.add(session, CreditGranted(account="a", amount=2))
            await outbox.add_many(session, [CreditGranted(account="a", amount=3), CreditGranted(account="a", amount=4)])
            assert not outbox.written.is_set(), "woken while its rows are still uncommitted"
        assert outbox.written.is_set()
    finally:
        await db.dispose()
