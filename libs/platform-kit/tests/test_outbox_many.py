"""`Outbox.add_many`: many events written in the caller's transaction with one statement per chunk (a draw's
20,000 coupon outcomes are a handful of round trips, not 20,000), published once each and in the order given,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from messaging_fixture import CreditGranted, create_schema, metadata
from platform_kit.bus import InMemoryBus
from platform_kit.db import Database
from platform_kit.events.table import HoleCardsDealt
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import recorded_statements


def outbox_inserts(statements: list[tuple[str, int]]) -> list[int]:
    """The rows of each INSERT INTO outbox among the recorded statements."""
    return [rows for sql, rows in statements if sql.upper().startswith("INSERT INTO OUTBOX")]


async def written_then_published(url: str, events: int, chunk: int) -> tuple[list[int], list[int], list[str]]:
    db = Database(url)
    await create_schema(db)
    bus = InMemoryBus()
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    relay = OutboxRelay(db, outbox, bus, batch_size=1000)
    try:
        with recorded_statements(db) as statements:
            async with db.transaction() as session:
                envelopes = await outbox.add_many(
                    session, (CreditGranted(account="a", amount=n) for n in range(events)), chunk=chunk
                )
        await relay.flush(timeout=60)
        published = [envelope.event().amount for _, envelope in bus.published]
        assert [e.id for e in envelopes] == [e.id for _, e in bus.published], "the envelopes returned are sent"
        return outbox_inserts(statements), published, [key for key, _ in bus.published]
    finally:
        await db.dispose()


async def test_many_events_are_one_statement_per_chunk_and_published_in_order(sqlite_url: str) -> None:
    statements, published, keys = await written_then_published(sqlite_url, 2_500, 1_000)
    assert statements == [1_000, 1_000, 500]
    assert published == list(range(2_500))
    assert set(keys) == {CreditGranted.TYPE}


@pytest.mark.postgres
async def test_many_events_on_postgresql(postgres_url: str) -> None:
    statements, published, _ = await written_then_published(postgres_url, 2_500, 1_000)
    assert statements == [1_000, 1_000, 500]
    assert published == list(range(2_500))


async def test_nothing_to_add_writes_nothing_and_private_events_keep_their_key(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    await create_schema(db)
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    bus = InMemoryBus()
    try:
        with recorded_statements(db) as statements:
            async with db.transaction() as session:
                assert await outbox.add_many(session, []) == []
        assert outbox_inserts(statements) == []
        dealt = HoleCardsDealt(table_id="t", hand_id="h", player_id="p", seat=1, cards=["As", "Kd"])
        async with db.transaction() as session:
            await outbox.add_many(session, [dealt, CreditGranted(account="a", amount=1)])
        await OutboxRelay(db, outbox, bus).flush()
        assert [key for key, _ in bus.published] == ["private.table.hole_cards.dealt", CreditGranted.TYPE]
    finally:
        await db.dispose()
