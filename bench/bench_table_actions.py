"""What a player's action costs the table engine's service path (issue 14): load the table, apply the action,
save it with its hand record and events (outbox), the relay publishing them, the command's inbox claim.

The engine runs in process (`create_app`, its lifespan: migrations, the shard's consumer, the outbox relay) on the
in-memory bus, on PostgreSQL and on SQLite. `--tables` six-handed tables play no-limit hands; a bot per table reads
each `table.action.requested` and answers with a `table.act` command drawn at random (fold, check/call or a
raise to a random amount), sent to the shard's queue as the gateway sends it, and asks for the next hand when one
ends (as the director does; a busted player is topped up first). `--in-flight` bounds how many tables wait for the
engine at once: 1 is the human pace of issue 14 (70 actions/s over 300 tables: a command rarely finds another
waiting), more lets the shard apply commands waiting together in one transaction.

Per row: actions/s (wall), the process's CPU ms per action (hand starts and top-ups included, as in the capacity
run, and the bots' and bus's own small share), statements, BEGINs and COMMITs per action on the engine's database,
and the latency from a command to the table's next request (the relay included). Peers: the pure engine replaying
the same hands (their recorded actions, from the database), and the database alone committing one-row
transactions through the same SQLAlchemy engine. CPU and statement counts are steadier than rates on a shared
machine.

    uv run python bench/bench_table_actions.py [--actions 3000] [--tables 30] [--in-flight 1 8] [--db postgres sqlite]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.db import Database
from platform_kit.events import Command
from platform_kit.events import table as contract
from platform_kit.events.table import command_routing_key
from platform_kit.runtime import ServiceRuntime
from platform_kit.testing import DatabaseTraffic, create_database, drop_database, running_app
from sqlalchemy import Column, Integer, MetaData, String, Table, insert, select
from table_engine.adapters import store
from table_engine.adapters.orm import hands
from table_engine.app import create_app
from table_engine.domain.records import replay
from table_engine.settings import Settings

START = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
LEVEL = contract.Level(small_blind=50, big_blind=100)
STACK = 20_000
SEATS = 6


@dataclass
class Row:
    label: str
    actions: int = 0
    hands: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    statements: int = 0
    begins: int = 0
    commits: int = 0
    latencies: list[float] = field(default_factory=list)

    def cells(self) -> list[str]:
        n = self.actions
        p50 = p99 = "—"
        if self.latencies:
            ordered = sorted(self.latencies)
            p50 = f"{1000 * statistics.median(ordered):.1f}"
            p99 = f"{1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.1f}"
        per = (lambda count: f"{count / n:.2f}") if self.statements or self.commits else (lambda count: "—")
        return [
            self.label,
            f"{n:,}",
            f"{n / self.wall:,.0f}",
            f"{1000 * self.cpu / n:.2f}",
            per(self.statements),
            per(self.begins),
            per(self.commits),
            p50,
            p99,
        ]


HEADER = ["path", "actions", "actions/s", "CPU ms/action", "stmts/action", "BEGINs", "COMMITs", "p50 ms", "p99 ms"]


class Bots:
    """One bot per table: answers each request of its table with a random legal action; one table waits for the
    engine at a time per slot of `in_flight`."""

    def __init__(self, bus: InMemoryBus, shards: int, tables: Sequence[str], in_flight: int, seed: int) -> None:
        self.bus = bus
        self.shards = shards
        self.rng = random.Random(seed)
        self.inboxes: dict[str, asyncio.Queue[tuple[str, dict[str, Any]]]] = {t: asyncio.Queue() for t in tables}
        self.slots = asyncio.Semaphore(in_flight)
        self.acts = 0
        self.hands = 0
        self.budget = 0
        self.latencies: list[float] = []

    async def observe(self, envelope: Envelope) -> None:
        """The bots' own queue: the table's requests, and its hands' ends."""
        inbox = self.inboxes.get(envelope.payload["table_id"])
        if inbox is not None:
            inbox.put_nowait((envelope.type, envelope.payload))

    async def send(self, command: Command, table_id: str) -> tuple[str, dict[str, Any]]:
        """Send `command` and wait for what the table asks next; the time it took is a latency."""
        async with self.slots:
            started = time.perf_counter()
            key = command_routing_key(command, table_id, self.shards)
            await self.bus.publish(Envelope.wrap(command, producer="bench").outgoing(key))
            answer = await self.inboxes[table_id].get()
            self.latencies.append(time.perf_counter() - started)
            return answer

    async def play(self, table_id: str, hand_no: int) -> None:
        """Play the table until the budget of actions is spent (the hand in progress is finished)."""
        kind, payload = await self.send(contract.StartHand(table_id=table_id, hand_no=hand_no, level=LEVEL), table_id)
        while True:
            if kind == contract.ActionRequested.TYPE:
                self.acts += 1
                kind, payload = await self.send(self.answer(table_id, payload), table_id)
            elif kind == contract.HandCompleted.TYPE:
                self.hands += 1
                if self.acts >= self.budget:
                    return
                for seat in payload["results"]:
                    if seat["end_stack"] == 0:
                        await self.topped_up(table_id, seat["player_id"])
                hand_no = payload["hand_no"] + 1
                started = contract.StartHand(table_id=table_id, hand_no=hand_no, level=LEVEL)
                kind, payload = await self.send(started, table_id)
            else:
                raise AssertionError(f"table {table_id}: unexpected {kind} {payload}")

    async def topped_up(self, table_id: str, player_id: str) -> None:
        command = contract.AddChips(table_id=table_id, player_id=player_id, amount=STACK, reason="rebuy")
        await self.bus.publish(
            Envelope.wrap(command, producer="bench").outgoing(command_routing_key(command, table_id, self.shards))
        )

    def answer(self, table_id: str, request: dict[str, Any]) -> contract.PlayerAct:
        choice = self.rng.random()
        action, amount = ("check", None) if request["can_check"] else ("call", None)
        if choice < 0.15 and not request["can_check"]:
            action = "fold"
        elif choice > 0.85 and request["min_raise_to"] is not None:
            low, high = request["min_raise_to"], request["max_raise_to"]
            action, amount = "raise", self.rng.randint(low, min(high, low * 3))
        return contract.PlayerAct(
            table_id=table_id, hand_id=request["hand_id"], player_id=request["player_id"], action=action, amount=amount
        )


async def service_path(label: str, url: str, tables: int, in_flight: int, actions: int, seed: int) -> Row:
    bus = InMemoryBus()
    settings = Settings(database_url=url, timer_interval_seconds=3600, hand_pause_seconds=0)
    app = create_app(settings, bus=bus, clock=FrozenClock(START), rng=random.Random(seed))
    names = [f"bench-{n:04d}" for n in range(tables)]
    row = Row(label)
    try:
        async with running_app(app, "http://table-engine.test"):
            runtime: ServiceRuntime = app.state.runtime
            await app.state.services.host.ready.wait()
            bots = Bots(bus, settings.table_engine_shards, names, in_flight, seed)
            await bus.subscribe(
                "bench-bots", [contract.ActionRequested.TYPE, contract.HandCompleted.TYPE], bots.observe
            )
            for name in names:
                seats = [contract.SeatedPlayer(seat=n, player_id=f"{name}-p{n}", stack=STACK) for n in range(1, 7)]
                opened = contract.OpenTable(
                    table_id=name, tournament_id="bench", max_seats=9, betting_structure="no_limit", seats=seats
                )
                await bus.publish(
                    Envelope.wrap(opened, producer="bench").outgoing(
                        command_routing_key(opened, name, settings.table_engine_shards)
                    )
                )
            await bus.drain()
            await runtime.relay.flush()
            # Warm up (caches, connections, the first hands), then measure a fresh budget.
            bots.budget = max(50, actions // 10)
            await asyncio.gather(*(bots.play(name, 1) for name in names))
            next_hand = {name: await _hands_played(runtime.db, name) + 1 for name in names}
            bots.acts, bots.hands, bots.latencies, bots.budget = 0, 0, [], actions
            cpu, wall = time.process_time(), time.perf_counter()
            with DatabaseTraffic() as traffic:
                await asyncio.gather(*(bots.play(name, next_hand[name]) for name in names))
            row.cpu, row.wall = time.process_time() - cpu, time.perf_counter() - wall
            database = str(runtime.db.engine.url.database)
            row.statements, row.begins, row.commits = (
                traffic.statements[database],
                traffic.begins[database],
                traffic.commits[database],
            )
            row.actions, row.hands, row.latencies = bots.acts, bots.hands, bots.latencies
    finally:
        await bus.close()
    return row


async def _hands_played(db: Database, table_id: str) -> int:
    async with db.sessions() as session:
        return len((await session.execute(select(hands.c.hand_id).where(hands.c.table_id == table_id))).all())


async def pure_engine(url: str) -> Row:
    """The same hands' actions replayed by the pure engine, from their records."""
    db = Database(url)
    try:
        async with db.sessions() as session:
            ids = (await session.execute(select(hands.c.hand_id).where(hands.c.status == "completed"))).scalars()
            records = [record for hand_id in ids if (record := await store.load_hand(session, hand_id)) is not None]
    finally:
        await db.dispose()
    row = Row("pure engine (replay of the same hands)")
    cpu, wall = time.process_time(), time.perf_counter()
    for record in records:
        replay(record.config, record.deck, record.actions)
    row.cpu, row.wall = time.process_time() - cpu, time.perf_counter() - wall
    row.actions = sum(len(record.actions) for record in records)
    return row


async def one_row_transactions(url: str, count: int) -> Row:
    """The database alone: a one-row INSERT committed per transaction, through the same kind of engine."""
    db = Database(url)
    scratch = Table("bench_rows", MetaData(), Column("id", Integer, primary_key=True), Column("note", String(40)))
    row = Row("database alone: one-row INSERT + COMMIT")
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(scratch.metadata.create_all)
        statement = insert(scratch)
        cpu, wall = time.process_time(), time.perf_counter()
        with DatabaseTraffic() as traffic:
            for n in range(count):
                async with db.transaction() as session:
                    await session.execute(statement, {"id": n, "note": "x"})
        row.cpu, row.wall = time.process_time() - cpu, time.perf_counter() - wall
        database = str(db.engine.url.database)
        row.statements, row.begins, row.commits = (
            traffic.statements[database],
            traffic.begins[database],
            traffic.commits[database],
        )
        row.actions = count
    finally:
        await db.dispose()
    return row


def print_table(title: str, rows: list[Row]) -> None:
    cells = [HEADER, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADER))]
    print(f"\n{title}\n")
    for n, line in enumerate(cells):
        print(
            "| "
            + " | ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            )
            + " |"
        )
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


async def main(args: argparse.Namespace) -> None:
    for kind in args.db:
        rows: list[Row] = []
        with tempfile.TemporaryDirectory() as folder:
            for in_flight in args.in_flight:
                url = (
                    await create_database()
                    if kind == "postgres"
                    else f"sqlite+aiosqlite:///{Path(folder)}/engine-{in_flight}.db"
                )
                try:
                    label = f"service path, {args.tables} tables, {in_flight} in flight"
                    row = await service_path(label, url, args.tables, in_flight, args.actions, args.seed)
                    rows.append(row)
                    if in_flight == args.in_flight[0]:
                        rows.append(await pure_engine(url))
                finally:
                    if kind == "postgres":
                        await drop_database(url)
            url = await create_database() if kind == "postgres" else f"sqlite+aiosqlite:///{Path(folder)}/alone.db"
            try:
                rows.append(await one_row_transactions(url, args.actions))
            finally:
                if kind == "postgres":
                    await drop_database(url)
        print_table(f"{kind}: {rows[0].hands} hands in the first row", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=3000, help="player actions measured per row")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--db", nargs="+", choices=["postgres", "sqlite"], default=["postgres", "sqlite"])
    parser.add_argument("--seed", type=int, default=14)
    asyncio.run(main(parser.parse_args()))
