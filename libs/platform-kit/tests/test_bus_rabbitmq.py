"""The bus against the real RabbitMQ and PostgreSQL: outbox, inbox, dead letters, broker restart, SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aio_pika
import pytest
from messaging_fixture import CreditGranted, apply_credit, create_schema, credited, metadata
from platform_kit.bus import Envelope
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.bus.transport import EVENTS_EXCHANGE
from platform_kit.db import Database
from platform_kit.inbox import Inbox
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import delete_queues, eventually

pytestmark = [pytest.mark.postgres, pytest.mark.rabbitmq]


@pytest.fixture
async def db(postgres_url: str) -> AsyncIterator[Database]:
    database = Database(postgres_url)
    await create_schema(database)
    yield database
    await database.dispose()


@pytest.fixture
async def bus(rabbitmq_url: str) -> AsyncIterator[RabbitBus]:
    transport = RabbitBus(rabbitmq_url)
    await transport.start()
    yield transport
    await transport.close()


@pytest.fixture
async def queue(unique_name: str, rabbitmq_url: str) -> AsyncIterator[str]:
    yield unique_name
    await delete_queues(rabbitmq_url, unique_name, f"{unique_name}.dead")


# Every test routes its messages by a key of its own (its queue's name), not by the event type: the tests of both
# pytest workers share the broker's exchange, and a consumer bound by the type would take the other tests' credits as
# its own (an inbox counting them as applied, a dead-letter queue holding another test's message).


async def consume_credits(bus: RabbitBus, db: Database, queue: str) -> Inbox:
    inbox = Inbox(metadata.tables["inbox"], db)
    await bus.subscribe(queue, [queue], inbox.exactly_once(queue, apply_credit))
    return inbox


async def test_event_in_rolled_back_transaction_is_never_published(db: Database, bus: RabbitBus, queue: str) -> None:
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    await consume_credits(bus, db, queue)
    with pytest.raises(RuntimeError):
        async with db.transaction() as session:
            await outbox.add(session, CreditGranted(account="alice", amount=5), routing_key=queue)
            raise RuntimeError("the state change failed")
    async with db.transaction() as session:
        await outbox.add(session, CreditGranted(account="alice", amount=7), routing_key=queue)
    relay = OutboxRelay(db, outbox, bus)
    assert await relay.publish_pending() == 1
    assert await eventually(lambda: _credited_is(db, "alice", (1, 7)))
    await asyncio.sleep(0.3)
    assert await credited(db, "alice") == (1, 7)


async def test_relay_publishes_the_stored_text_byte_for_byte_and_the_consumer_gets_an_equal_envelope(
    db: Database, bus: RabbitBus, queue: str, rabbitmq_url: str
) -> None:
    received: list[Envelope] = []

    async def record(envelope: Envelope) -> None:
        received.append(envelope)

    await bus.subscribe(queue, [queue], record)
    connection = await aio_pika.connect(rabbitmq_url)
    async with connection:
        # A bare AMQP consumer beside the platform's: it sees the bytes on the wire, properties and all.
        wire = await (await connection.channel()).declare_queue(exclusive=True)
        await wire.bind(EVENTS_EXCHANGE, routing_key=queue)
        outbox = Outbox(metadata.tables["outbox"], producer="test")
        row = outbox.row(CreditGranted(account="zoë ✓", amount=17))
        written = Envelope.model_validate_json(row["envelope"])
        # Stored in a form a parse and re-serialisation would change: indented, and with a field this version's
        # Envelope does not know (as a newer replica of the producer could write during a rolling deploy).
        stored = json.dumps({**json.loads(row["envelope"]), "from_a_newer_producer": 1}, indent=1, ensure_ascii=False)
        async with db.transaction() as session:
            await session.execute(outbox.table.insert(), {**row, "routing_key": queue, "envelope": stored})

        assert await OutboxRelay(db, outbox, bus).publish_pending() == 1

        sent = await eventually(lambda: wire.get(fail=False))
        assert sent is not None
        await sent.ack()
        assert sent.body == stored.encode()
        assert (sent.message_id, sent.type, sent.app_id, sent.routing_key) == (
            written.id,
            CreditGranted.TYPE,
            "test",
            queue,
        )
    await eventually(lambda: _value(len(received) == 1))
    assert received == [written.delivered_as(queue)]


async def test_message_delivered_twice_is_applied_once(db: Database, bus: RabbitBus, queue: str) -> None:
    inbox = Inbox(metadata.tables["inbox"], db)
    await bus.subscribe(queue, [queue], inbox.exactly_once(queue, apply_credit))
    envelope = Envelope.wrap(CreditGranted(account="bob", amount=11), producer="test")
    await bus.publish(envelope.outgoing(queue))
    await bus.publish(envelope.outgoing(queue))
    await eventually(lambda: _value(inbox.applied_total + inbox.duplicates_total == 2))
    assert await credited(db, "bob") == (1, 11)
    assert inbox.duplicates_total == 1


async def test_consumer_that_keeps_failing_dead_letters_after_bounded_tries(
    bus: RabbitBus, queue: str, rabbitmq_url: str
) -> None:
    attempts = 0

    async def always_fails(_: Envelope) -> None:
        nonlocal attempts
        attempts += 1
        raise ValueError("poison message")

    await bus.subscribe(queue, [queue], always_fails, max_deliveries=3)
    envelope = Envelope.wrap(CreditGranted(account="carol", amount=1), producer="test")
    await bus.publish(envelope.outgoing(queue))

    async def dead_lettered() -> str | None:
        connection = await aio_pika.connect(rabbitmq_url)
        async with connection:
            channel = await connection.channel()
            dead = await channel.declare_queue(f"{queue}.dead", durable=True, passive=True)
            message = await dead.get(fail=False)
            if message is None:
                return None
            await message.ack()
            return message.message_id

    assert await eventually(dead_lettered, timeout=20) == envelope.id
    assert attempts == 3


async def _credited_is(db: Database, account: str, expected: tuple[int, int]) -> bool:
    return await credited(db, account) == expected


async def _value(value: bool) -> bool:
    return value


async def _backlog_is(relay: OutboxRelay, expected: int) -> bool:
    return await relay.backlog() == expected


@pytest.mark.serial
async def test_event_committed_while_broker_is_down_is_published_when_it_is_back(
    db: Database, bus: RabbitBus, queue: str
) -> None:
    await consume_credits(bus, db, queue)
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    relay = OutboxRelay(db, outbox, bus, idle_interval=0.2)
    relay.start()
    try:
        subprocess.run(["rabbitmqctl", "stop_app"], check=True, capture_output=True)
        try:
            async with db.transaction() as session:
                await outbox.add(session, CreditGranted(account="dave", amount=3), routing_key=queue)
            await asyncio.sleep(1.0)
            assert await relay.backlog() == 1, "published although the broker is down"
        finally:
            subprocess.run(["rabbitmqctl", "start_app"], check=True, capture_output=True)
        assert await eventually(lambda: _credited_is(db, "dave", (1, 3)), timeout=60)
        # The consumer may apply it before the relay's mark-sent commits: the publish is confirmed first.
        assert await eventually(lambda: _backlog_is(relay, 0))
    finally:
        await relay.stop()


async def test_relay_killed_between_publish_and_mark_sent_duplicate_is_absorbed(
    db: Database, bus: RabbitBus, queue: str, postgres_url: str, rabbitmq_url: str
) -> None:
    inbox = await consume_credits(bus, db, queue)
    outbox = Outbox(metadata.tables["outbox"], producer="test")
    async with db.transaction() as session:
        await outbox.add(session, CreditGranted(account="erin", amount=13), routing_key=queue)

    here = Path(__file__).parent
    process = subprocess.Popen(
        [sys.executable, str(here / "relay_then_hang.py"), postgres_url, rabbitmq_url],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(here)},
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), timeout=30)
        assert line.strip() == b"PUBLISHED"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()

    relay = OutboxRelay(db, outbox, bus)
    assert await relay.backlog() == 1, "the killed relay must not have marked the row sent"
    assert await relay.publish_pending() == 1
    await eventually(lambda: _value(inbox.applied_total + inbox.duplicates_total == 2), timeout=20)
    assert await credited(db, "erin") == (1, 13)
    assert inbox.duplicates_total == 1


async def test_per_instance_subscriptions_each_get_every_message(rabbitmq_url: str, unique_name: str) -> None:
    """Fan-out: every replica (e.g. each gateway) receives its own copy; the queues vanish with the replicas."""
    replicas = [RabbitBus(rabbitmq_url), RabbitBus(rabbitmq_url)]
    received: list[list[str]] = [[], []]
    for index, replica in enumerate(replicas):
        await replica.start()

        async def record(envelope: Envelope, into: list[str] = received[index]) -> None:
            into.append(envelope.id)

        await replica.subscribe(
            unique_name, [f"private.{unique_name}.#", f"{unique_name}.#"], record, per_instance=True
        )
    publisher = RabbitBus(rabbitmq_url)
    await publisher.start()
    public = Envelope.wrap(CreditGranted(account="fan", amount=1), producer="test")
    private = Envelope.wrap(CreditGranted(account="fan", amount=2), producer="test")
    await publisher.publish(public.outgoing(f"{unique_name}.{public.type}"))
    await publisher.publish(private.outgoing(f"private.{unique_name}.{private.type}"))
    await eventually(lambda: _value(all(len(r) == 2 for r in received)))
    assert received == [[public.id, private.id], [public.id, private.id]]
    for bus in [*replicas, publisher]:
        await bus.close()
