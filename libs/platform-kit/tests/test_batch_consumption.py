"""Messages waiting together are applied in one transaction, still exactly once and in order; a message that
fails inside a batch is retried alone and dead-lettered alone, its neighbours applied. Both transports: the
in-memory bus on SQLite (standalone) and RabbitMQ on PostgreSQL (deployed)."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aio_pika
import pytest
from messaging_fixture import CreditGranted, apply_credit, create_schema, credited, credits, metadata
from platform_kit.bus import Envelope, InMemoryBus, Transport
from platform_kit.bus.rabbitmq import PREFETCH, RabbitBus
from platform_kit.bus.transport import BATCH_LIMIT
from platform_kit.db import Database
from platform_kit.inbox import Inbox
from platform_kit.testing import (
    POSTGRES_ADMIN_URL,
    RABBITMQ_URL,
    create_database,
    delete_queues,
    drop_database,
    eventually,
    require,
)
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

POISON = 999  # the amount whose credit always fails


@dataclass
class Setup:
    bus: Transport
    db: Database
    queue: str


@pytest.fixture(params=["memory+sqlite", pytest.param("rabbitmq+postgres", marks=[pytest.mark.rabbitmq])])
async def setup(request: pytest.FixtureRequest, unique_name: str, tmp_path: Path) -> AsyncIterator[Setup]:
    if request.param == "memory+sqlite":
        async for ready in _set_up(Database(f"sqlite+aiosqlite:///{tmp_path}/batch.db"), InMemoryBus(), unique_name):
            yield ready
        return
    require(POSTGRES_ADMIN_URL, "PostgreSQL")
    require(RABBITMQ_URL, "RabbitMQ")
    url = await create_database()
    try:
        async for ready in _set_up(Database(url), RabbitBus(RABBITMQ_URL), unique_name):
            yield ready
    finally:
        await drop_database(url)
        await delete_queues(RABBITMQ_URL, unique_name, f"{unique_name}.dead")


async def _set_up(db: Database, bus: Transport, queue: str) -> AsyncIterator[Setup]:
    await create_schema(db)
    await bus.start()
    try:
        yield Setup(bus, db, queue)
    finally:
        await bus.close()
        await db.dispose()


@dataclass
class GatedConsumer:
    """Holds every delivery until `gate` opens, so that the messages published meanwhile wait together."""

    inbox: Inbox
    queue: str
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    batch_sizes: list[int] = field(default_factory=list)

    async def apply(self, session: AsyncSession, envelope: Envelope) -> None:
        if envelope.payload["amount"] == POISON:
            raise RuntimeError("poison message")
        await apply_credit(session, envelope)

    async def one(self, envelope: Envelope) -> None:
        await self.gate.wait()
        await self.inbox.exactly_once(self.queue, self.apply)(envelope)

    async def batch(self, envelopes: Sequence[Envelope]) -> None:
        await self.gate.wait()
        self.batch_sizes.append(len(envelopes))
        await self.inbox.exactly_once_batch(self.queue, self.apply)(envelopes)


async def amounts_in_applied_order(db: Database) -> list[int]:
    async with db.sessions() as session:
        return list((await session.scalars(select(credits.c.amount).order_by(credits.c.id))).all())


async def subscribe(setup: Setup, max_deliveries: int = 3) -> GatedConsumer:
    consumer = GatedConsumer(Inbox(metadata.tables["inbox"], setup.db), setup.queue)
    # Routed by the test's own key, not the event type: tests running at once on one broker share its exchange.
    await setup.bus.subscribe(
        setup.queue, [setup.queue], consumer.one, batch=consumer.batch, max_deliveries=max_deliveries
    )
    return consumer


async def publish(setup: Setup, amounts: Sequence[int], account: str = "acct") -> list[Envelope]:
    envelopes = [Envelope.wrap(CreditGranted(account=account, amount=amount), producer="test") for amount in amounts]
    for envelope in envelopes:
        await setup.bus.publish(envelope.outgoing(setup.queue))
    return envelopes


async def test_waiting_messages_are_applied_in_batches_in_order_exactly_once(setup: Setup) -> None:
    consumer = await subscribe(setup)
    envelopes = await publish(setup, range(1, 41))
    await publish_again(setup, envelopes[5:8])  # redeliveries of three of them, queued behind the rest
    consumer.gate.set()
    assert await eventually(lambda: _is(consumer.inbox.applied_total == 40))
    assert await eventually(lambda: _is(consumer.inbox.duplicates_total == 3))
    assert await credited(setup.db, "acct") == (40, sum(range(1, 41)))
    assert await amounts_in_applied_order(setup.db) == list(range(1, 41))
    assert max(consumer.batch_sizes) > 1, "messages that waited together were applied together"
    assert len(consumer.batch_sizes) < 40


async def test_a_batch_holds_at_most_the_batch_limit(setup: Setup) -> None:
    consumer = await subscribe(setup)
    await publish(setup, range(1, 3 * BATCH_LIMIT + 1))
    consumer.gate.set()
    assert await eventually(lambda: _is(consumer.inbox.applied_total == 3 * BATCH_LIMIT))
    assert max(consumer.batch_sizes) <= BATCH_LIMIT
    assert await amounts_in_applied_order(setup.db) == list(range(1, 3 * BATCH_LIMIT + 1))


@pytest.mark.rabbitmq
@pytest.mark.postgres
async def test_the_broker_delivers_the_next_batch_while_one_is_applied(unique_name: str) -> None:
    """A consumer holds two batches' worth of deliveries: while its first batch waits (the gate), the broker has
    already handed it the next one instead of holding it back until the first batch's ack."""
    require(POSTGRES_ADMIN_URL, "PostgreSQL")
    require(RABBITMQ_URL, "RabbitMQ")
    assert PREFETCH >= 2 * BATCH_LIMIT
    published = PREFETCH + BATCH_LIMIT
    url = await create_database()
    try:
        async for ready in _set_up(Database(url), RabbitBus(RABBITMQ_URL), unique_name):
            consumer = await subscribe(ready)
            await publish(ready, range(1, published + 1))
            # Ready (not yet delivered) messages fall to what the prefetch leaves, the first batch still held.
            assert await eventually(lambda: _ready_is(unique_name, published - PREFETCH))
            consumer.gate.set()
            assert await eventually(lambda: _is(consumer.inbox.applied_total == published))  # noqa: B023
            assert max(consumer.batch_sizes) <= BATCH_LIMIT
    finally:
        await drop_database(url)
        await delete_queues(RABBITMQ_URL, unique_name, f"{unique_name}.dead")


async def _ready_is(queue: str, expected: int) -> bool:
    connection = await aio_pika.connect(RABBITMQ_URL)
    async with connection:
        channel = await connection.channel()
        declared = await channel.declare_queue(queue, passive=True)
        return declared.declaration_result.message_count == expected


async def test_a_failing_message_in_a_batch_is_dead_lettered_alone(setup: Setup) -> None:
    consumer = await subscribe(setup, max_deliveries=2)
    await publish(setup, [1, 2, POISON, 4, 5])
    consumer.gate.set()
    assert await eventually(lambda: _is(consumer.inbox.applied_total == 4), timeout=20)
    assert await credited(setup.db, "acct") == (4, 1 + 2 + 4 + 5)
    assert await amounts_in_applied_order(setup.db) == [1, 2, 4, 5]


async def publish_again(setup: Setup, envelopes: Sequence[Envelope]) -> None:
    for envelope in envelopes:
        await setup.bus.publish(envelope.outgoing(setup.queue))


async def _is(value: bool) -> bool:
    return value


@pytest.mark.serial
@pytest.mark.rabbitmq
@pytest.mark.postgres
async def test_batches_keep_being_consumed_after_the_broker_restarts(unique_name: str) -> None:
    """The queue's one consumer task survives the broker going away with deliveries in hand (their acks cannot
    be given; the broker redelivers them and the inbox absorbs the repeats)."""
    require(POSTGRES_ADMIN_URL, "PostgreSQL")
    require(RABBITMQ_URL, "RabbitMQ")
    url = await create_database()
    try:
        async for ready in _set_up(Database(url), RabbitBus(RABBITMQ_URL), unique_name):
            bus, db = ready.bus, ready.db
            consumer = await subscribe(ready)
            await publish(ready, range(1, 21))
            subprocess.run(["rabbitmqctl", "stop_app"], check=True, capture_output=True)
            try:
                consumer.gate.set()  # the waiting deliveries are applied while the broker is down
                await eventually(lambda: _is(consumer.inbox.applied_total > 0), timeout=30)  # noqa: B023
            finally:
                subprocess.run(["rabbitmqctl", "start_app"], check=True, capture_output=True)
            await eventually(lambda: _connected(bus), timeout=60)  # noqa: B023 (awaited at once)
            await publish(ready, range(21, 41))
            assert await eventually(lambda: _credited_is(db, (40, sum(range(1, 41)))), timeout=60)  # noqa: B023
    finally:
        await drop_database(url)


async def _connected(bus: Transport) -> bool:
    return await bus.ping()


async def _credited_is(db: Database, expected: tuple[int, int]) -> bool:
    return await credited(db, "acct") == expected
