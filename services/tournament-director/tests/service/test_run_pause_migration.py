"""Migration 0009: a run paused before the upgrade shows its pause in the lobby's column after it (read from its
snapshot once); runs playing or over show none; a downgrade drops the column."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic import command
from platform_kit.migrations import alembic_config
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from tournament_director.adapters.orm import runs
from tournament_director.domain.run import TournamentRun
from tournament_director.simulation.setup import SimulationOptions, simulation_definition

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
DEFINITION = simulation_definition(SimulationOptions(players=10, seed=1))


def _row(tournament_id: str, *, paused: bool = False, cancelled: bool = False) -> dict[str, object]:
    run, _ = TournamentRun.start(tournament_id, DEFINITION, [f"p{n}" for n in range(10)], random.Random(1), T0)
    if paused:
        run.pause(T0 + timedelta(minutes=5), "Database failover")
    if cancelled:
        run.cancel(T0 + timedelta(minutes=6), "Gave up")
    return {
        "tournament_id": tournament_id,
        "state": json.dumps(run.to_json()),
        "version": 1,
        "next_clock_at": None if run.is_over else run.next_clock_change(),
        "updated_at": T0,
    }


async def test_runs_paused_before_the_upgrade_have_their_pause_in_the_column(sqlite_url: str) -> None:
    config = alembic_config(sqlite_url, MIGRATIONS)
    await asyncio.to_thread(command.upgrade, config, "0008")
    engine = create_async_engine(sqlite_url)
    async with engine.begin() as connection:
        rows = [_row("playing"), _row("paused", paused=True), _row("over", paused=True, cancelled=True)]
        await connection.execute(runs.insert(), rows)

    await asyncio.to_thread(command.upgrade, config, "head")
    async with engine.connect() as connection:
        paused = dict((await connection.execute(select(runs.c.tournament_id, runs.c.paused_at))).all())
    await asyncio.to_thread(command.downgrade, config, "0008")
    async with engine.connect() as connection:
        kept = sorted((await connection.execute(select(runs.c.tournament_id))).scalars())
    await engine.dispose()
    assert paused == {"playing": None, "paused": T0 + timedelta(minutes=5), "over": None}
    assert kept == ["over", "paused", "playing"]
