import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gateway.app import MIGRATIONS
from platform_kit.clock import FrozenClock
from platform_kit.testing import MigratedSqlite

sys.path.insert(0, str(Path(__file__).parent))

from fake_services import FakeServices
from gateway_test_support import Driver, fast_settings, running

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def database_url(migrated_sqlite: MigratedSqlite, tmp_path: Path) -> str:
    """A migrated gateway database of the test's own (start the gateway with migrate_on_start=False)."""
    return migrated_sqlite.copy(MIGRATIONS, tmp_path / "gateway.db")


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
