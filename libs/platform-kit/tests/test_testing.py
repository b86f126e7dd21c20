"""The kit's test helpers: migrated SQLite copies, an app started in process, and `eventually` with progress."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from platform_kit import testing
from platform_kit.app import create_service_app
from platform_kit.bus import InMemoryBus
from platform_kit.migrations import messaging_metadata
from platform_kit.runtime import ServiceRuntime
from platform_kit.testing import MigratedSqlite, eventually, running_app
from sqlalchemy import inspect
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import create_async_engine
from test_service_app import DemoSettings

ENV = "from platform_kit.migrations import run_env\nfrom sqlalchemy import MetaData\n\nrun_env(MetaData())\n"
FIRST = """from alembic import op
from platform_kit.migrations import create_messaging_tables, drop_messaging_tables

revision = "0001"
down_revision = None


def upgrade():
    create_messaging_tables(op)


def downgrade():
    drop_messaging_tables(op)
"""


@pytest.fixture
def migrations(tmp_path: Path) -> Path:
    """An Alembic folder whose one revision creates the kit's outbox and inbox, as every service's 0001 does."""
    folder = tmp_path / "demo" / "migrations"
    (folder / "versions").mkdir(parents=True)
    (folder / "env.py").write_text(ENV)
    (folder / "versions" / "0001_messaging.py").write_text(FIRST)
    return folder


async def tables(url: str) -> set[str]:
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        names = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    return names


async def test_each_copy_is_a_migrated_database_of_its_own_from_one_migration(
    migrations: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upgrades: list[str] = []
    upgrade = testing.upgrade_to_head

    def counted(url: str, folder: Path) -> None:
        upgrades.append(url)
        upgrade(url, folder)

    monkeypatch.setattr(testing, "upgrade_to_head", counted)
    migrated = MigratedSqlite(tmp_path / "templates")
    (tmp_path / "templates").mkdir()

    # From inside the test's event loop, where Alembic's env.py could not start a loop of its own.
    first = migrated.copy(migrations, tmp_path / "first.db")
    second = migrated.copy(migrations, tmp_path / "second.db")

    assert len(upgrades) == 1
    assert (first, second) == (f"sqlite+aiosqlite:///{tmp_path}/first.db", f"sqlite+aiosqlite:///{tmp_path}/second.db")
    assert {"outbox", "inbox", "alembic_version"} <= await tables(first)
    engine = create_async_engine(first)
    async with engine.begin() as connection:
        await connection.exec_driver_sql("DROP TABLE inbox")
    await engine.dispose()
    assert "inbox" in await tables(second)


@pytest.fixture
def runtime(migrated_sqlite: MigratedSqlite, migrations: Path, tmp_path: Path) -> ServiceRuntime:
    """A demo service's runtime on a migrated SQLite file and the in-memory bus, not started."""
    url = migrated_sqlite.copy(migrations, tmp_path / "demo.db")
    return ServiceRuntime(
        DemoSettings(database_url=url, migrate_on_start=False),
        metadata=messaging_metadata(),
        migrations_dir=migrations,
        bus=InMemoryBus(),
    )


async def test_running_app_starts_the_service_and_stops_it_after_the_client(runtime: ServiceRuntime) -> None:
    life: list[str] = []

    async def background() -> None:
        life.append("started")
        try:
            await asyncio.Event().wait()
        finally:
            life.append("stopped")

    runtime.in_background(background)
    app = create_service_app(runtime, title="Demo", description="started in process")

    async with running_app(app, "http://demo", headers={"X-Request-ID": "fixed"}) as http:
        ready = await http.get("/readyz")
        assert (ready.status_code, ready.headers["x-request-id"]) == (200, "fixed")
        await eventually(lambda: asyncio.sleep(0, result=life == ["started"]))

    assert http.is_closed
    assert life == ["started", "stopped"]


async def test_eventually_waits_as_long_as_the_work_moves() -> None:
    """No time at all without a change: every poll below moves the work on, so only the result ends the wait."""
    polls = 0

    async def check() -> bool:
        nonlocal polls
        polls += 1
        return polls == 20

    assert await eventually(check, timeout=0, interval=0, progress=lambda: polls)
    assert polls == 20


async def test_eventually_fails_when_the_work_stops_moving() -> None:
    async def never() -> list[str]:
        return []

    with pytest.raises(AssertionError, match=r"within 0.05s without progress \(still at 72\) \(last value: \[\]\)"):
        await eventually(never, timeout=0.05, interval=0.01, progress=lambda: 72)


async def test_a_background_task_finding_the_database_busy_is_restarted_with_a_warning_not_an_error(
    runtime: ServiceRuntime, caplog: pytest.LogCaptureFixture
) -> None:
    """A pool timeout in a rush is overload, not a fault: the task runs again, and no error is logged."""
    runs = 0

    async def clock_tick() -> None:
        nonlocal runs
        runs += 1
        if runs == 1:
            raise PoolTimeout("QueuePool limit of size 10 overflow 0 reached")
        await asyncio.Event().wait()

    runtime.in_background(clock_tick)
    app = create_service_app(runtime, title="Demo", description="a busy database")
    async with running_app(app, "http://demo"):
        await eventually(lambda: asyncio.sleep(0, result=runs == 2))

    busy = [record for record in caplog.records if "database busy" in record.getMessage()]
    assert [record.levelname for record in busy] == ["WARNING"]
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
