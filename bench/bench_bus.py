"""Outbox → broker → inbox throughput: events per second end to end, publisher confirms on, inbox on.

Peers in one run: RabbitMQ + PostgreSQL (the deployed shape) and the in-memory bus + SQLite (standalone).
Each event is written by a producer transaction into the outbox, published by the relay, and applied by a
consumer that records the message id in its inbox and inserts a row, in one transaction. The producer, its
relay and the consumer share this one process (one core of Python for the three), except in the row "consumer in
its own process", which is how the platform runs them: the producing and the consuming service are processes of
their own.

    uv run python bench/bench_bus.py [--events 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "libs" / "platform-kit" / "tests"))

import aio_pika
import asyncpg
from messaging_fixture import CreditGranted, apply_credit, create_schema, credited, metadata
from platform_kit.bus import Envelope, InMemoryBus, Transport
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.db import Database
from platform_kit.inbox import Inbox
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import RABBITMQ_URL, create_database, delete_queues, drop_database
from platform_runner import serving

PER_TRANSACTION = 10
CEILING_CONNECTIONS = 8


async def run(
    label: str, db: Database, bus: Transport, events: int, *, concurrency: int = 1, batched: bool = False
) -> tuple[str, int, float, float]:
    await create_schema(db)
    await bus.start()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    inbox = Inbox(metadata.tables["inbox"], db)
    batch = inbox.exactly_once_batch(queue, apply_credit) if batched else None
    await bus.subscribe(
        queue, [CreditGranted.TYPE], inbox.exactly_once(queue, apply_credit), concurrency=concurrency, batch=batch
    )
    outbox = Outbox(metadata.tables["outbox"], producer="bench")
    relay = OutboxRelay(db, outbox, bus, batch_size=500, idle_interval=0.05)
    started = time.perf_counter()
    relay.start()
    await produce(db, outbox, events)
    written = time.perf_counter() - started
    while inbox.applied_total < events:
        await asyncio.sleep(0.005)
    elapsed = time.perf_counter() - started
    await relay.stop()
    assert (got := await credited(db, "bench")) == (events, events), (label, got, inbox.applied_total)
    if isinstance(bus, RabbitBus):
        await delete_queues(RABBITMQ_URL, queue, f"{queue}.dead")
    await bus.close()
    await db.dispose()
    return label, events, events / written, events / elapsed


async def consume_elsewhere(url: str, queue: str, events: int, ready: Any, finished: Any) -> None:
    """The consuming service's process: subscribe, say so, apply `events` messages, report when it was done."""
    db = Database(url)
    bus = RabbitBus(RABBITMQ_URL)
    await bus.start()
    inbox = Inbox(metadata.tables["inbox"], db)
    await bus.subscribe(
        queue,
        [CreditGranted.TYPE],
        inbox.exactly_once(queue, apply_credit),
        batch=inbox.exactly_once_batch(queue, apply_credit),
    )
    ready.set()
    while inbox.applied_total < events:
        await asyncio.sleep(0.005)
    finished.put(time.time())
    await bus.close()
    await db.dispose()


def consumer_process(url: str, queue: str, events: int, ready: Any, finished: Any) -> None:
    serving.run(consume_elsewhere(url, queue, events, ready, finished))


async def run_split(url: str, events: int) -> tuple[str, int, float, float]:
    """Producer and relay here, the consumer (batched) in a process of its own."""
    db = Database(url)
    await create_schema(db)
    bus = RabbitBus(RABBITMQ_URL)
    await bus.start()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    context = multiprocessing.get_context("spawn")
    ready, finished = context.Event(), context.Queue()
    consumer = context.Process(target=consumer_process, args=(url, queue, events, ready, finished))
    consumer.start()
    await asyncio.to_thread(ready.wait)
    outbox = Outbox(metadata.tables["outbox"], producer="bench")
    relay = OutboxRelay(db, outbox, bus, batch_size=500, idle_interval=0.05)
    started = time.time()
    relay.start()
    await produce(db, outbox, events)
    written = time.time() - started
    done = await asyncio.to_thread(finished.get)
    consumer.join()
    await relay.stop()
    assert (got := await credited(db, "bench")) == (events, events), got
    await delete_queues(RABBITMQ_URL, queue, f"{queue}.dead")
    await bus.close()
    await db.dispose()
    return "RabbitMQ + PostgreSQL, consumer in its own process", events, events / written, events / (done - started)


async def relay_alone(events: int) -> tuple[float, float]:
    """The relay by itself on RabbitMQ + PostgreSQL, from a full outbox to an empty one, the broker routing to one
    quorum queue: events per second, and its CPU microseconds per event (this process's CPU time, which the other
    processes sharing the machine disturb far less than they do its wall-clock rate)."""
    url = await create_database()
    try:
        db = Database(url)
        await create_schema(db)
        bus = RabbitBus(RABBITMQ_URL)
        await bus.start()
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        await bus.subscribe(queue, [CreditGranted.TYPE], _ignore)
        await bus.close()  # the queue stays, bound: the published events have somewhere to go
        await bus.start()
        outbox = Outbox(metadata.tables["outbox"], producer="bench")
        await produce(db, outbox, events)
        relay = OutboxRelay(db, outbox, bus, batch_size=500)
        started, cpu_started = time.perf_counter(), time.process_time()
        while await relay.publish_pending():
            pass
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        assert relay.published_total == events, relay.published_total
        await delete_queues(RABBITMQ_URL, queue, f"{queue}.dead")
        await bus.close()
        await db.dispose()
    finally:
        await drop_database(url)
    return events / elapsed, cpu / events * 1e6


async def _ignore(_: Envelope) -> None:
    return None


async def produce(db: Database, outbox: Outbox, events: int) -> None:
    for first in range(0, events, PER_TRANSACTION):
        async with db.transaction() as session:
            # As the services write several events of one change (the table engine's `_save`): one statement.
            await outbox.add_many(
                session, [CreditGranted(account="bench", amount=1) for _ in range(min(PER_TRANSACTION, events - first))]
            )


async def broker_ceiling(messages: int) -> tuple[float, float]:
    """RabbitMQ alone, no database: persistent publishes with confirms, pipelined; then consumed and acked."""
    connection = await aio_pika.connect(RABBITMQ_URL)
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        queue = await channel.declare_queue(
            f"bench-ceiling-{uuid.uuid4().hex[:8]}", durable=True, arguments={"x-queue-type": "quorum"}
        )
        body = Envelope.wrap(CreditGranted(account="bench", amount=1), producer="bench").to_bytes()
        started = time.perf_counter()
        for first in range(0, messages, 500):
            await asyncio.gather(
                *(
                    channel.default_exchange.publish(
                        aio_pika.Message(body, delivery_mode=aio_pika.DeliveryMode.PERSISTENT), routing_key=queue.name
                    )
                    for _ in range(min(500, messages - first))
                )
            )
        published = messages / (time.perf_counter() - started)
        await channel.set_qos(prefetch_count=32)
        started = time.perf_counter()
        received = 0
        async with queue.iterator() as incoming:
            async for message in incoming:
                await message.ack()
                received += 1
                if received == messages:
                    break
        consumed = messages / (time.perf_counter() - started)
        await queue.delete(if_unused=False, if_empty=False)
    return published, consumed


async def postgres_ceiling(seconds: float = 3.0) -> float:
    """PostgreSQL alone: one-row INSERT transactions per second from CEILING_CONNECTIONS connections."""
    url = await create_database()
    try:
        dsn = url.replace("+asyncpg", "")
        setup = await asyncpg.connect(dsn)
        await setup.execute("CREATE TABLE ceiling (id bigserial PRIMARY KEY, v int)")
        await setup.close()
        deadline = time.perf_counter() + seconds
        counts = [0] * CEILING_CONNECTIONS

        async def worker(n: int) -> None:
            connection = await asyncpg.connect(dsn)
            while time.perf_counter() < deadline:
                async with connection.transaction():
                    await connection.execute("INSERT INTO ceiling (v) VALUES (1)")
                counts[n] += 1
            await connection.close()

        await asyncio.gather(*(worker(n) for n in range(CEILING_CONNECTIONS)))
        return sum(counts) / seconds
    finally:
        await drop_database(url)


async def main(events: int) -> None:
    rows = []
    for label, concurrency, batched in (
        ("RabbitMQ + PostgreSQL, one per commit", 1, False),
        ("RabbitMQ + PostgreSQL, 16 in flight", 16, False),
        ("RabbitMQ + PostgreSQL, batched", 1, True),
    ):
        url = await create_database()
        try:
            rows.append(
                await run(
                    label, Database(url), RabbitBus(RABBITMQ_URL), events, concurrency=concurrency, batched=batched
                )
            )
        finally:
            await drop_database(url)
    url = await create_database()
    try:
        rows.append(await run_split(url, events))
    finally:
        await drop_database(url)
    for label, batched in (("in-memory + SQLite, one per commit", False), ("in-memory + SQLite, batched", True)):
        with tempfile.TemporaryDirectory() as tmp:
            database = Database(f"sqlite+aiosqlite:///{tmp}/bench.db")
            rows.append(await run(label, database, InMemoryBus(), events, batched=batched))
    relayed, relay_cpu = await relay_alone(events)
    published, consumed = await broker_ceiling(events)
    committed = await postgres_ceiling()
    print(f"\nOutbox → bus → inbox, {events} events, {PER_TRANSACTION} events per producer transaction")
    print("(producer, relay and consumer in this one process but in the row that says otherwise; the machine's")
    print(" 2 cores are shared by these processes, the broker and the database)\n")
    print(f"| {'transport + database':<50} | {'events':>7} | {'written/s':>10} | {'end-to-end/s':>12} |")
    print(f"|{'-' * 52}|{'-' * 9}|{'-' * 12}|{'-' * 14}|")
    for label, count, write_rate, rate in rows:
        print(f"| {label:<50} | {count:>7} | {write_rate:>10,.0f} | {rate:>12,.0f} |")
    print(
        f"\nThe relay alone (RabbitMQ + PostgreSQL, a full outbox emptied in batches of 500): {relayed:,.0f} events/s,"
    )
    print(f"{relay_cpu:,.0f} µs of its process's CPU per event")
    print("\nThe infrastructure's own ceilings, same run:\n")
    print(f"| {'peer':<60} | {'per second':>10} |")
    print(f"|{'-' * 62}|{'-' * 12}|")
    print(f"| {'RabbitMQ: persistent publishes confirmed, pipelined (quorum)':<60} | {published:>10,.0f} |")
    print(f"| {'RabbitMQ: the same consumed and acked, prefetch 32':<60} | {consumed:>10,.0f} |")
    print(f"| {f'PostgreSQL: one-row transactions, {CEILING_CONNECTIONS} connections':<60} | {committed:>10,.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=5000)
    serving.run(main(parser.parse_args().events))  # the services' own event loop (uvloop)
