"""Migrations 0009 and 0010 on runs saved before them. 0009: a run paused before the upgrade shows its pause in
the lobby's column after it (read from its snapshot once); runs playing or over show none; a downgrade drops the
column. 0010: each snapshot gets its tournament's currency."""

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
from tournament_director.adapters.orm import runs, tournaments
from tournament_director.domain.run import TournamentRun
from tournament_director.simulation.setup import SimulationOptions, simulation_definition

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
DEFINITION = simulation_definition(SimulationOptions(players=10, seed=1))


def _row(tournament_id: str, *, paused: bool = False, cancelled: bool = False) -> dict[str, object]:
    players = [f"p{n}" for n in range(10)]
    run, _ = TournamentRun.start(tournament_id, DEFINITION, players, random.Random(1), T0, currency="EUR")
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


def _tournament(tournament_id: str, currency: str) -> dict[str, object]:
    return {
        "tournament_id": tournament_id,
        "name": tournament_id,
        "kind": DEFINITION.kind.value,
        "status": "running",
        "currency": currency,
        "created_by": "test",
        "definition": DEFINITION.model_dump_json(),
        "jackpots": "[]",
        "invited_player_ids": "[]",
        "created_at": T0,
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


async def test_snapshots_saved_before_the_upgrade_get_their_tournaments_currency(sqlite_url: str) -> None:
    """Migration 0010 (issue 19): the run announces its finish in its tournament's currency, which snapshots saved
    before it did not keep; the downgrade takes it out again."""
    config = alembic_config(sqlite_url, MIGRATIONS)
    await asyncio.to_thread(command.upgrade, config, "0009")
    engine = create_async_engine(sqlite_url)
    row = _row("chf")
    old = json.loads(str(row["state"]))
    del old["currency"]
    async with engine.begin() as connection:
        await connection.execute(tournaments.insert(), [_tournament("chf", "CHF")])
        await connection.execute(runs.insert(), [{**row, "state": json.dumps(old)}])

    async def snapshot() -> dict[str, object]:
        async with engine.connect() as connection:
            return dict(json.loads(await connection.scalar(select(runs.c.state)) or "{}"))

    await asyncio.to_thread(command.upgrade, config, "head")
    upgraded = await snapshot()
    await asyncio.to_thread(command.downgrade, config, "0009")
    downgraded = await snapshot()
    await engine.dispose()
    assert upgraded == {**old, "currency": "CHF"}
    assert TournamentRun.restore(upgraded, random.Random(1)).to_json() == upgraded
    assert downgraded == old
