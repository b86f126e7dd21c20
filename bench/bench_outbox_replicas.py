"""Replicas sharing one outbox — the table engine's shards write to one database — each committing events at a
steady rate: how long an event waits between its commit and the broker's confirm of its publish.

One relay at a time holds the outbox's turn (an advisory lock, so that events leave in the order they were
committed). The rows: one relay alone at the whole rate (the peer: what the turn costs when nobody else wants
it), then two replicas at half the rate each, as two shards publish a 3,000-player tournament's actions. Each
replica has its own pool and relay, as in its own process; both run in this one event loop, whose CPU time per
event (the producers' and the relays' together) is the last column. RabbitMQ confirms every publish, PostgreSQL
holds the outbox. `--busy N` runs N processes spinning on the CPU meanwhile, for the machine of a capacity run,
where every hop waits for a core.

    uv run python bench/bench_outbox_replicas.py [--rate 70] [--seconds 20] [--busy 3]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "libs" / "platform-kit" / "tests"))

from capacity.metrics import quantiles  # nearest rank, as every capacity figure
from messaging_fixture import CreditGranted, create_schema, metadata
from platform_kit.bus import OutgoingMessage
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.db import Database
from platform_kit.outbox import Outbox, OutboxRelay
from platform_kit.testing import RABBITMQ_URL, create_database, drop_database
from platform_runner import serving

DRAIN_TIMEOUT = 60.0


class Confirmed:
    """The broker, noting when each message's publish was confirmed."""

    def __init__(self, broker: RabbitBus) -> None:
        self.broker = broker
        self.confirmed_at: dict[str, float] = {}

    async def publish(self, message: OutgoingMessage) -> None:
        await self.broker.publish(message)
        self.confirmed_at.setdefault(message.message_id, time.perf_counter())


async def replica(
    url: str, confirmed: Confirmed, rate: float, until: float, committed_at: dict[str, float], seed: int
) -> None:
    """One replica: its pool, its relay, and a producer committing one event at a time at `rate` a second
    (exponential gaps, as players' actions arrive)."""
    db = Database(url)
    outbox = Outbox(metadata.tables["outbox"], producer="bench")  # one producer: one turn for both replicas
    relay = OutboxRelay(db, outbox, confirmed)  # type: ignore[arg-type]  # publishes only
    relay.start()
    rng = random.Random(seed)
    try:
        while time.perf_counter() < until:
            await asyncio.sleep(rng.expovariate(rate))
            async with db.transaction() as session:
                envelope = await outbox.add(session, CreditGranted(account="bench", amount=1))
            committed_at[envelope.id] = time.perf_counter()
        async with asyncio.timeout(DRAIN_TIMEOUT):
            while any(message_id not in confirmed.confirmed_at for message_id in committed_at):
                await asyncio.sleep(0.01)
    finally:
        await relay.stop()
        await db.dispose()


async def measure(label: str, replicas: int, rate: float, seconds: float) -> tuple[object, ...]:
    url = await create_database()
    try:
        db = Database(url)
        await create_schema(db)
        await db.dispose()
        broker = RabbitBus(RABBITMQ_URL)
        await broker.start()
        confirmed = Confirmed(broker)
        committed_at: dict[str, float] = {}
        until = time.perf_counter() + seconds
        cpu = time.process_time()
        await asyncio.gather(
            *(replica(url, confirmed, rate / replicas, until, committed_at, seed) for seed in range(replicas))
        )
        cpu = time.process_time() - cpu
        await broker.close()
    finally:
        await drop_database(url)
    waits = [(confirmed.confirmed_at[m] - at) * 1000 for m, at in committed_at.items()]
    q = quantiles(waits)
    slow = sum(1 for wait in waits if wait >= 100)
    return label, len(waits), q["p50"], q["p95"], q["p99"], q["max"], slow, cpu / len(waits) * 1e6


def print_table(rows: list[tuple[object, ...]]) -> None:
    headers = ("commit → confirmed publish (ms)", "events", "p50", "p95", "p99", "max", "≥ 100 ms", "CPU µs/event")
    cells = [list(headers), *[[f"{v:,.1f}" if isinstance(v, float) else f"{v}" for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for row in cells:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))


def spin() -> None:
    while True:
        pass


async def main(rate: float, seconds: float, busy: int) -> None:
    spinners = [multiprocessing.get_context("spawn").Process(target=spin, daemon=True) for _ in range(busy)]
    for spinner in spinners:
        spinner.start()
    try:
        rows = [
            await measure(f"peer: one relay, {rate:g} events/s", 1, rate, seconds),
            await measure(f"two replicas, {rate / 2:g} events/s each", 2, rate, seconds),
        ]
    finally:
        for spinner in spinners:
            spinner.terminate()
    print(f"{busy} processes spinning on the machine's cores meanwhile")
    print_table(rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=70.0, help="events a second, all replicas together")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the CPU meanwhile")
    arguments = parser.parse_args()
    serving.run(main(arguments.rate, arguments.seconds, arguments.busy))
