"""What a gateway's partner-webhook intake costs per platform event (issue 14), on PostgreSQL: every money move
(the wallet's `operation.posted`, one per coupon staked in a totalizator's closing rush) reaches the `gateway`
queue, and its messages are applied as the inbox applies them, up to a prefetch of them in one transaction.

Cases: no endpoint anywhere (most of a rush: no partner takes money moves); endpoints that chose other types;
one endpoint taking `ledger.operation_posted` (the work when a partner wants them: the ledger view built and a
delivery queued for each). Peer in the same run: the inbox alone (the transaction, the claim statement and the
commit; a handler that does nothing), the floor of consuming the queue at all.

    uv run python bench/bench_webhook_intake.py [--events 5000] [--players 2000] [--batch 64]

CPU time of this process per event and events per second of wall time, the best of three runs each; PostgreSQL's
own work shows only in the second. The intake's memory of the players' concessionaires starts empty in each run.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, date, datetime
from typing import Any

from gateway.adapters import webhook_store
from gateway.adapters.orm import concessionaires, metadata, players
from gateway.service.webhooks_intake import WebhookIntake
from platform_kit.bus import Envelope
from platform_kit.clock import SystemClock
from platform_kit.db import Database
from platform_kit.events.wallet import AccountRef, OperationPosted, Posting
from platform_kit.inbox import Inbox
from platform_kit.testing import create_database, drop_database
from sqlalchemy import delete, insert
from sqlalchemy.ext.asyncio import AsyncSession

CONCESSIONAIRE = "c-alpha"
NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)

Apply = Callable[[Sequence[Envelope]], Awaitable[None]]


def money_moves(count: int, player_count: int) -> list[Envelope]:
    """Deposits into `player_count` players' accounts, round robin (each player named again and again)."""
    envelopes = []
    for n in range(count):
        player = f"p-{n % player_count}"
        move = OperationPosted(
            operation_id=n + 1,
            kind="deposit",
            currency="EUR",
            player_id=player,
            postings=[
                Posting(
                    debit=AccountRef(kind="cash", owner=CONCESSIONAIRE),
                    credit=AccountRef(kind="player", owner=player),
                    amount=1_000,
                    purpose="deposit",
                )
            ],
            posted_at=NOW,
        )
        envelopes.append(Envelope.wrap(move, producer="wallet"))
    return envelopes


async def set_up(db: Database, player_count: int) -> None:
    async with db.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
        await connection.execute(
            insert(concessionaires).values(id=CONCESSIONAIRE, code="alpha", name="Alpha", created_at=NOW)
        )
        rows: list[dict[str, Any]] = [
            {
                "id": f"p-{n}",
                "nickname": f"P{n}",
                "nickname_key": f"p{n}",
                "email": f"p{n}@alpha.example",
                "date_of_birth": date(1990, 1, 1),
                "concessionaire_id": CONCESSIONAIRE,
                "password_hash": "-",
                "created_at": NOW,
            }
            for n in range(player_count)
        ]
        await connection.execute(insert(players), rows)


async def subscribe(session: AsyncSession, endpoint_id: str, types: tuple[str, ...]) -> None:
    record = webhook_store.EndpointRecord(
        id=endpoint_id, concessionaire_id=CONCESSIONAIRE, url="https://partner.example/hooks", event_types=types,
        description="bench", secret="whsec_bench", previous_secret=None, previous_secret_until=None, enabled=True,
        disabled_reason=None, disabled_at=None, failing_since=None, lease_until=None, created_by="bench",
        created_at=NOW,
    )  # fmt: skip
    await webhook_store.insert_endpoint(session, record)


async def endpoints(db: Database, chosen: list[tuple[str, ...]]) -> None:
    """Exactly these endpoints (each with the types it chose), and no delivery, inbox row or endpoint before."""
    async with db.transaction() as session:
        for table in ("webhook_deliveries", "webhook_endpoints", "inbox"):
            await session.execute(delete(metadata.tables[table]))
        for n, types in enumerate(chosen):
            await subscribe(session, f"e-{n}", types)


async def cost(db: Database, apply: Callable[[], Apply], envelopes: list[Envelope], batch: int) -> tuple[float, float]:
    """(CPU µs per event, events per second of wall time), the best of three runs, each on an empty inbox."""
    best_cpu, best_rate = float("inf"), 0.0
    for _ in range(3):
        async with db.transaction() as session:
            await session.execute(delete(metadata.tables["inbox"]))
            await session.execute(delete(metadata.tables["webhook_deliveries"]))
        handle = apply()
        cpu, wall = time.process_time(), time.perf_counter()
        for start in range(0, len(envelopes), batch):
            await handle(envelopes[start : start + batch])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best_cpu, best_rate = min(best_cpu, cpu * 1e6 / len(envelopes)), max(best_rate, len(envelopes) / wall)
    return best_cpu, best_rate


async def main(events: int, player_count: int, batch: int) -> None:
    url = await create_database()
    db = Database(url, pool_size=4)
    try:
        await set_up(db, player_count)
        inbox = Inbox(metadata.tables["inbox"], db)
        envelopes = money_moves(events, player_count)

        def intake() -> Apply:
            return inbox.exactly_once_batch("gateway", WebhookIntake(SystemClock(), lambda: None).consume)

        async def nothing(_: AsyncSession, __: Envelope) -> None:
            return None

        cases: list[tuple[str, list[tuple[str, ...]], Callable[[], Apply]]] = [
            ("no endpoint anywhere", [], intake),
            ("endpoints of other types (coupon.settled, player.registered)", [("coupon.settled",), ("player.registered",)], intake),
            ("one endpoint taking ledger.operation_posted", [("ledger.operation_posted",)], intake),
            ("peer: the inbox alone (claim and commit, no handler)", [], lambda: inbox.exactly_once_batch("gateway", nothing)),
        ]  # fmt: skip
        rows = []
        for name, chosen, apply in cases:
            await endpoints(db, chosen)
            rows.append((name, *await cost(db, apply, envelopes, batch)))
    finally:
        await db.dispose()
        await drop_database(url)
    print(
        f"\nWebhook intake on PostgreSQL: {events:,} operation.posted of {player_count:,} players, {batch} per transaction"
    )
    print("(this process's CPU per event and the wall-clock rate; PostgreSQL shares the machine's 2 cores)\n")
    width = max(len(name) for name, *_ in rows)
    print(f"| {'case'.ljust(width)} | CPU µs/event | events/s |")
    print(f"|{'-' * (width + 2)}|-------------:|---------:|")
    for name, cpu, rate in rows:
        print(f"| {name.ljust(width)} | {cpu:12,.0f} | {rate:8,.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=64, help="messages per transaction (the inbox's batch)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.events, arguments.players, arguments.batch))
