"""Outbox → broker → inbox throughput: events per second end to end, publisher confirms on, inbox on.

Peers in one run: RabbitMQ + PostgreSQL (the deployed shape) and the in-memory bus + SQLite (standalone).
Each event is written by a producer transaction into the outbox, published by the relay, and applied by a
consumer that records the message id in its inbox and inserts a row, in one transaction.

    uv run python bench/bench_bus.py [--events 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "libs" / "platform-kit" / "tests"))

from messaging_fixture import CreditGranted, apply_credit, create_schema, credited, metadata
from platform_kit.bus import InMemoryBus, Transport
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.db import Database
from platform_kit.inbox import Inbox
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import RABBITMQ_URL, create_database, drop_database

PER_TRANSACTION = 10


async def run(
    label: str, db: Database, bus: Transport, events: int, concurrency: int = 1
) -> tuple[str, int, float, float]:
    await create_schema(db)
    await bus.start()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    inbox = Inbox(metadata.tables["inbox"], db)
    await bus.subscribe(queue, [CreditGranted.TYPE], inbox.exactly_once(queue, apply_credit), concurrency=concurrency)
    outbox = Outbox(metadata.tables["outbox"], producer="bench")
    relay = OutboxRelay(db, outbox, bus, batch_size=500, idle_interval=0.05)
    started = time.perf_counter()
    relay.start()
    for first in range(0, events, PER_TRANSACTION):
        async with db.transaction() as session:
            for _ in range(min(PER_TRANSACTION, events - first)):
                await outbox.add(session, CreditGranted(account="bench", amount=1))
    written = time.perf_counter() - started
    while inbox.applied_total < events:
        await asyncio.sleep(0.005)
    elapsed = time.perf_counter() - started
    await relay.stop()
    assert await credited(db, "bench") == (events, events)
    if isinstance(bus, RabbitBus):
        import aio_pika

        connection = await aio_pika.connect(RABBITMQ_URL)
        async with connection:
            channel = await connection.channel()
            await channel.queue_delete(queue)
            await channel.queue_delete(f"{queue}.dead")
    await bus.close()
    await db.dispose()
    return label, events, events / written, events / elapsed


async def main(events: int) -> None:
    rows = []
    for concurrency in (1, 16):
        url = await create_database()
        try:
            label = f"RabbitMQ + PostgreSQL, {concurrency} in flight"
            rows.append(await run(label, Database(url), RabbitBus(RABBITMQ_URL), events, concurrency))
        finally:
            await drop_database(url)
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(
            await run("in-memory + SQLite", Database(f"sqlite+aiosqlite:///{tmp}/bench.db"), InMemoryBus(), events)
        )
    print(f"\nOutbox → bus → inbox, {events} events, {PER_TRANSACTION} events per producer transaction\n")
    print(f"| {'transport + database':<36} | {'events':>7} | {'written/s':>10} | {'end-to-end/s':>12} |")
    print(f"|{'-' * 38}|{'-' * 9}|{'-' * 12}|{'-' * 14}|")
    for label, count, write_rate, rate in rows:
        print(f"| {label:<36} | {count:>7} | {write_rate:>10,.0f} | {rate:>12,.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=5000)
    asyncio.run(main(parser.parse_args().events))
