"""`OutboxRelay.flush` on the real PostgreSQL: while another relay of the same producer holds the turn (its
advisory lock), flush waits and returns only once every event written is published — the race that made tests
read the bus too early when the service's own relay loop was publishing at the same moment; and a relay whose
publish never returns gives the turn back after its batch's time limit instead of holding it for ever."""

from __future__ import annotations

import asyncio

import pytest
from messaging_fixture import CreditGranted, create_schema, metadata
from platform_kit.bus import InMemoryBus, OutgoingMessage
from platform_kit.db import Database
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import eventually
from sqlalchemy import text

pytestmark = pytest.mark.postgres


async def other_relay_holding_the_turn(db: Database, relay: OutboxRelay, release: asyncio.Event) -> asyncio.Task[None]:
    """A replica's relay in the middle of its batch: it holds the turn (the advisory lock) until `release`."""
    turn_taken = asyncio.Event()

    async def hold() -> None:
        async with db.transaction() as session:
            await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": relay._lock_key})
            turn_taken.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await turn_taken.wait()
    return holder


async def published(bus: InMemoryBus) -> bool:
    return bool(bus.published)


async def test_flush_waits_for_the_relay_holding_the_turn_then_publishes_everything(postgres_url: str) -> None:
    db = Database(postgres_url)
    await create_schema(db)
    bus = InMemoryBus()
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    relay = OutboxRelay(db, outbox, bus)
    async with db.transaction() as session:
        for amount in range(5):
            await outbox.add(session, CreditGranted(account="a", amount=amount))
    release = asyncio.Event()
    holder = await other_relay_holding_the_turn(db, relay, release)
    assert await relay.publish_pending() == 0  # not our turn: a plain publish returns at once
    flushing = asyncio.create_task(relay.flush())
    await asyncio.sleep(0.2)
    assert not flushing.done() and bus.published == []  # waiting for the turn, not returning early

    release.set()
    await holder
    await flushing

    assert [envelope.event().amount for _, envelope in bus.published] == [0, 1, 2, 3, 4]
    assert await relay.backlog() == 0
    await db.dispose()


class HangingBus(InMemoryBus):
    """A broker whose publish never returns, as aio-pika's does while it waits for a channel that is not
    restored."""

    async def publish(self, message: OutgoingMessage) -> None:
        await asyncio.Event().wait()


async def test_a_publish_that_never_returns_fails_its_batch_and_gives_the_turn_back(postgres_url: str) -> None:
    db = Database(postgres_url)
    await create_schema(db)
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    async with db.transaction() as session:
        await outbox.add_many(session, [CreditGranted(account="a", amount=amount) for amount in range(3)])
    stuck = OutboxRelay(db, outbox, HangingBus(), batch_timeout=0.2)

    assert await stuck.publish_pending() == 0  # returned: the batch failed instead of holding the turn

    bus = InMemoryBus()  # the replica's relay, or this one once the broker answers again
    assert await OutboxRelay(db, outbox, bus).publish_pending() == 3
    assert [envelope.event().amount for _, envelope in bus.published] == [0, 1, 2]
    async with db.sessions() as session:
        attempts = (await session.execute(text("SELECT attempts FROM outbox ORDER BY seq"))).scalars().all()
    assert attempts == [1, 1, 1]  # the failed try is counted
    await db.dispose()


async def test_the_relay_loop_waits_for_a_replicas_turn_and_then_publishes_without_another_commit(
    postgres_url: str,
) -> None:
    """Two replicas (the table engine's shards) share one outbox. A commit that wakes this relay while the other
    holds the turn is published as soon as the turn is free: not left for this replica's next commit or the idle
    interval (set to an hour here, so that giving up would time the test out)."""
    db = Database(postgres_url)
    await create_schema(db)
    bus = InMemoryBus()
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    relay = OutboxRelay(db, outbox, bus, idle_interval=3600)
    release = asyncio.Event()
    holder = await other_relay_holding_the_turn(db, relay, release)
    relay.start()
    try:
        async with db.transaction() as session:
            await outbox.add(session, CreditGranted(account="a", amount=7))  # wakes the relay at its commit
        await asyncio.sleep(0.2)
        assert bus.published == []  # the other replica's turn
        release.set()
        await holder
        # Generous: only a loaded machine's scheduling stands between the release and the publish.
        await eventually(lambda: published(bus), timeout=30)
        assert [envelope.event().amount for _, envelope in bus.published] == [7]
    finally:
        await relay.stop()
        await db.dispose()
