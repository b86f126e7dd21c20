"""What the director service pays per event on a big tournament: loading a run's state, and saving it.

Every table's every hand result is one transaction on the tournament's run: lock its row, load the run, apply
the result, save the snapshot. For a 3,000-player run this prints, on PostgreSQL, the time of one such
transaction doing nothing but the load and the save — the overhead every event pays — with the snapshot
restored from the database each time (no cache) and with the process's run cache (`adapters.runs.RunCache`),
side by side, plus the snapshot's size.

    uv run python bench/bench_director_runs.py [--players 3000] [--events 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from datetime import UTC, datetime

from platform_kit.db import Database
from platform_kit.testing import create_database, drop_database
from tournament_director.adapters import runs
from tournament_director.adapters.orm import metadata, tournaments
from tournament_director.adapters.runs import RunCache
from tournament_director.domain.run import TournamentRun
from tournament_director.simulation.setup import SimulationOptions, simulation_definition

NOW = datetime(2025, 1, 1, tzinfo=UTC)
T = "t-bench"


async def one_event(db: Database, rng: random.Random, cache: RunCache | None) -> float:
    started = time.perf_counter()
    async with db.transaction() as session:
        run = await runs.load(session, T, rng, cache)
        assert run is not None
        await runs.save(session, run, NOW, cache)
    return time.perf_counter() - started


async def main(players: int, events: int) -> None:
    url = await create_database()
    db = Database(url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(metadata.create_all)
        async with db.transaction() as session:
            await session.execute(
                tournaments.insert().values(
                    tournament_id=T, name="bench", kind="scheduled", status="running", currency="EUR",
                    created_by="bench", definition="{}", jackpots="[]", invited_player_ids="[]", created_at=NOW,
                )
            )  # fmt: skip
        definition = simulation_definition(SimulationOptions(players=players, seed=1))
        names = [f"player-{n:05d}" for n in range(players)]
        run, _ = TournamentRun.start(T, definition, names, random.Random(1), NOW, currency="EUR")
        size = len(json.dumps(run.to_json(), separators=(",", ":")))
        rng = random.Random(2)
        async with db.transaction() as session:
            await runs.save(session, run, NOW)
        rows = []
        for label, cache in (("restored from the snapshot", None), ("run cache", RunCache())):
            if cache is not None:
                await one_event(db, rng, cache)  # the first load restores; the cache holds it from then on
            times = [await one_event(db, rng, cache) for _ in range(events)]
            rows.append((label, statistics.median(times) * 1000, sorted(times)[int(0.99 * (events - 1))] * 1000))
    finally:
        await db.dispose()
        await drop_database(url)
    print(f"\nDirector: one event's load + save of a {players:,}-player run on PostgreSQL ({events} events, "
          f"snapshot {size / 1e6:.2f} MB)")  # fmt: skip
    print("| run state | p50 ms | p99 ms | events/s (one at a time) |")
    print("|---|---:|---:|---:|")
    for label, p50, p99 in rows:
        print(f"| {label} | {p50:.1f} | {p99:.1f} | {1000 / p50:,.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3_000)
    parser.add_argument("--events", type=int, default=200)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.events))
