import shutil
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from platform_kit.clock import FrozenClock
from platform_kit.migrations import upgrade_to_head

sys.path.insert(0, str(Path(__file__).parent))

from fake_services import FakeServices
from gateway_test_support import MIGRATIONS, Driver, fast_settings, running

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated SQLite file, copied for each test: migrating per test would dominate the suite's time."""
    path = tmp_path_factory.mktemp("template") / "gateway.db"
    upgrade_to_head(f"sqlite+aiosqlite:///{path}", MIGRATIONS)
    return path


@pytest.fixture
def database_url(migrated_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "gateway.db"
    shutil.copy(migrated_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(START)


@pytest.fixture
def services() -> FakeServices:
    return FakeServices()


@pytest.fixture
async def driver(database_url: str, clock: FrozenClock, services: FakeServices) -> AsyncIterator[Driver]:
    settings = fast_settings(database_url, migrate_on_start=False)
    async with running(settings, clock, services.transport()) as started:
        yield started
