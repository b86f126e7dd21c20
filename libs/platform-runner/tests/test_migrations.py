"""Every service's Alembic migrations build exactly the tables its code declares, on PostgreSQL and SQLite."""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from platform_kit.migrations import upgrade_to_head
from platform_runner.services import SERVICES, package
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parents[3]


async def differences(url: str, service: str) -> list[object]:
    await asyncio.to_thread(upgrade_to_head, url, ROOT / "services" / service / "migrations")
    metadata = importlib.import_module(f"{package(service)}.adapters.orm").metadata
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        diff = await connection.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
    await engine.dispose()
    return list(diff)


@pytest.mark.postgres
@pytest.mark.parametrize("service", SERVICES)
async def test_migrations_match_models_on_postgres(service: str, postgres_url: str) -> None:
    assert await differences(postgres_url, service) == []


@pytest.mark.parametrize("service", SERVICES)
async def test_migrations_match_models_on_sqlite(service: str, tmp_path: Path) -> None:
    assert await differences(f"sqlite+aiosqlite:///{tmp_path}/{service}.db", service) == []
