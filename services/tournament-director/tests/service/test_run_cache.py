"""The run cache (adapters.runs): a run saved by this process is taken from memory while its snapshot version is
unchanged; a save by another process, or a transaction that failed after changing the run, sends the next call
back to the snapshot. On SQLite and on the real PostgreSQL (row lock + version in one statement)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from platform_kit.db import Database
from platform_kit.testing import POSTGRES_ADMIN_URL, create_database, drop_database, require
from tournament_director.adapters import runs, tournaments
from tournament_director.adapters.orm import metadata
from tournament_director.adapters.runs import RunCache
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.run import TournamentRun
from tournament_director.simulation.setup import SimulationOptions, simulation_definition

NOW = datetime(2025, 1, 1, tzinfo=UTC)
T = "t-cache"
DEFINITION = simulation_definition(SimulationOptions(players=30, seed=1))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/runs.db"
    else:
        require(POSTGRES_ADMIN_URL, "PostgreSQL")
        url = await create_database()
    db = Database(url)
    async with db.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
    record = TournamentRecord(
        tournament_id=T,
        name="cache",
        status=Status.RUNNING,
        currency="EUR",
        concessionaire_id=None,
        created_by="test",
        template=None,
        definition=DEFINITION,
        jackpots=(),
        invited_player_ids=frozenset(),
        registration_opens_at=None,
        starts_at=None,
        created_at=NOW,
    )
    async with db.transaction() as session:
        await tournaments.insert(session, record)
    yield db
    await db.dispose()
    if request.param == "postgres":
        await drop_database(url)


def started_run() -> TournamentRun:
    run, _ = TournamentRun.start(T, DEFINITION, [f"p{n}" for n in range(30)], random.Random(1), NOW, currency="EUR")
    return run


async def test_a_run_this_process_saved_comes_from_memory_until_someone_else_saves_it(database: Database) -> None:
    cache, rng = RunCache(), random.Random(2)
    run = started_run()
    async with database.transaction() as session:
        await runs.save(session, run, NOW, cache)
    async with database.transaction() as session:  # a page view reads it without taking it
        assert await runs.peek(session, T, rng, cache) is run
    async with database.transaction() as session:
        loaded = await runs.load(session, T, rng, cache)
        assert loaded is run and cache.hits == 1
        await runs.save(session, run, NOW, cache)
    async with database.transaction() as session:  # another process: no cache, bumps the version
        other = await runs.load(session, T, rng)
        assert other is not None and other is not run and other.to_json() == run.to_json()
        await runs.save(session, other, NOW)

    async with database.transaction() as session:
        reloaded = await runs.load(session, T, rng, cache)

    assert reloaded is not None and reloaded is not run and cache.misses == 1
    assert reloaded.to_json() == run.to_json()


async def test_readers_of_a_run_a_writer_holds_restore_it_once_per_version(database: Database) -> None:
    """Issue 14: while a writer has taken the run (load … commit), readers share one restored copy of the version
    they read; the writer's commit hands them its own run again, and the copy is never given to a writer."""
    cache, rng = RunCache(), random.Random(2)
    run = started_run()
    async with database.transaction() as session:
        await runs.save(session, run, NOW, cache)
    async with database.transaction() as writing:
        assert await runs.load(writing, T, rng, cache) is run  # taken: out of the cache until the commit
        async with database.sessions() as reading:
            first = await runs.peek(reading, T, rng, cache)
        async with database.sessions() as reading:
            second = await runs.peek(reading, T, rng, cache)
        assert first is not None and first is not run and second is first
        assert first.to_json() == run.to_json()
        run.disqualify("p1", NOW)
        await runs.save(writing, run, NOW, cache)
    async with database.sessions() as reading:
        assert await runs.peek(reading, T, rng, cache) is run  # the newer version, from the writer
    async with database.transaction() as writing:
        taken = await runs.load(writing, T, rng, cache)
        assert taken is run and taken is not first


async def test_a_run_changed_by_a_transaction_that_failed_is_restored_from_its_snapshot(database: Database) -> None:
    cache, rng = RunCache(), random.Random(2)
    run = started_run()
    async with database.transaction() as session:
        await runs.save(session, run, NOW, cache)
    saved = run.to_json()
    with pytest.raises(RuntimeError):
        async with database.transaction() as session:
            taken = await runs.load(session, T, rng, cache)
            assert taken is run
            run.disqualify("p1", NOW)  # changed in memory…
            await runs.save(session, run, NOW, cache)
            raise RuntimeError("…and the transaction fails")

    async with database.transaction() as session:
        restored = await runs.load(session, T, rng, cache)

    assert restored is not None and restored is not run
    assert restored.to_json() == saved and "p1" in restored.players_left


async def test_calls_in_one_transaction_hand_the_run_on_from_memory_and_the_last_save_is_kept(
    database: Database,
) -> None:
    """Several messages applied in one transaction (the consumer's batches): the second call takes the run the
    first one saved without restoring the snapshot, and the commit keeps the last save."""
    cache, rng = RunCache(), random.Random(2)
    run = started_run()
    async with database.transaction() as session:
        await runs.save(session, run, NOW, cache)
        again = await runs.load(session, T, rng, cache)
        assert again is run and cache.misses == 0
        run.disqualify("p1", NOW)
        await runs.save(session, run, NOW, cache)
    async with database.transaction() as session:
        assert await runs.load(session, T, rng, cache) is run
    assert cache.hits == 1 and cache.misses == 0


async def test_a_run_taken_again_in_a_transaction_and_not_saved_is_not_kept(database: Database) -> None:
    cache, rng = RunCache(), random.Random(2)
    run = started_run()
    async with database.transaction() as session:
        await runs.save(session, run, NOW, cache)
        saved = run.to_json()
        taken = await runs.load(session, T, rng, cache)
        assert taken is run
        run.disqualify("p1", NOW)  # changed in memory, never saved: the snapshot stays the truth
    async with database.transaction() as session:
        reloaded = await runs.load(session, T, rng, cache)
    assert reloaded is not None and reloaded is not run
    assert reloaded.to_json() == saved != run.to_json()


async def test_the_lobby_lists_a_runs_pause_from_its_row_without_restoring_it(database: Database) -> None:
    """Issue 14: the lobby reads `paused_at` as a column with the tournaments (no snapshot restored per running
    tournament); every save writes it with the snapshot, and a run over shows none."""
    run = started_run()
    paused_at = NOW + timedelta(minutes=3)
    run.pause(paused_at, "Database failover")
    async with database.transaction() as session:
        await runs.save(session, run, paused_at)
    async with database.transaction() as session:
        [listed] = await tournaments.listing(session, status="running")
        assert (listed.tournament.tournament_id, listed.paused_at, listed.registered) == (T, paused_at, 0)
        assert await tournaments.listed(session, T) == listed
    run.resume(paused_at + timedelta(minutes=1))
    async with database.transaction() as session:
        await runs.save(session, run, paused_at)
        assert (await tournaments.listing(session))[0].paused_at is None
    run.pause(paused_at + timedelta(minutes=2), "Again")
    run.cancel(paused_at + timedelta(minutes=3), "Gave up")
    async with database.transaction() as session:
        await runs.save(session, run, paused_at)
        assert (await tournaments.listing(session))[0].paused_at is None
