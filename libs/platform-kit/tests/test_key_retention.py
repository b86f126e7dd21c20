"""The kit's idempotency-key retention over any service's key table, on SQLite and PostgreSQL: answered keys
past the window go, oldest first, a bounded batch per transaction, counted; unanswered claims and recent keys
stay. And the retention is one setting for the whole platform: one variable that every service reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from platform_kit.clock import FrozenClock
from platform_kit.db import Database, UtcDateTime
from platform_kit.key_retention import KeyRetention
from platform_kit.settings import ServiceSettings, service_config
from prometheus_client import CollectorRegistry
from pydantic import ValidationError
from sqlalchemy import Column, Integer, MetaData, PrimaryKeyConstraint, String, Table, select

T0 = datetime(2025, 3, 1, 12, tzinfo=UTC)
RETENTION = timedelta(hours=24)

metadata = MetaData()
keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(50), nullable=False),
    Column("key", String(50), nullable=False),
    Column("status_code", Integer, nullable=True),  # None: the request that claimed the key has not answered
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("scope", "key"),
)


@pytest.fixture(params=[pytest.param("postgres_url", marks=pytest.mark.postgres), "sqlite_url"])
def database_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(request.param)
    return url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    async with database.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
    yield database
    await database.dispose()


async def stored(db: Database) -> list[str]:
    async with db.sessions() as session:
        return list((await session.scalars(select(keys.c.key).order_by(keys.c.key))).all())


async def test_answered_keys_past_the_retention_are_purged_in_bounded_batches_oldest_first(db: Database) -> None:
    clock, registry = FrozenClock(T0), CollectorRegistry()
    retention = KeyRetention(db, clock, registry, keys, RETENTION, metric_prefix="svc")
    rows = [
        {"scope": "s", "key": f"old-{n}", "status_code": 201, "created_at": T0 + timedelta(minutes=n)} for n in range(5)
    ]
    rows.append({"scope": "s", "key": "unanswered", "status_code": None, "created_at": T0})
    rows.append({"scope": "s", "key": "recent", "status_code": 409, "created_at": T0 + timedelta(hours=2)})
    async with db.transaction() as session:
        await session.execute(keys.insert(), rows)
    clock.set(T0 + RETENTION + timedelta(hours=1))

    async with db.transaction() as session:  # one statement deletes one batch, the oldest first
        assert await retention.purge_batch(session, clock.now() - RETENTION, batch=2) == 2
    assert await stored(db) == ["old-2", "old-3", "old-4", "recent", "unanswered"]

    assert await retention.purge_expired(batch=2) == 3  # a full batch, then a short one ends the run
    assert await stored(db) == ["recent", "unanswered"]
    assert await retention.purge_expired(batch=2) == 0
    assert registry.get_sample_value("svc_idempotency_keys_purged_total") == 3.0


class _Service(ServiceSettings):
    model_config = service_config("some-service")
    service_name: str = "some-service"


def test_the_retention_is_one_variable_for_every_service(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _Service().idempotency_retention_hours == 720
    monkeypatch.setenv("SOME_SERVICE_IDEMPOTENCY_RETENTION_HOURS", "99")  # no per-service variable
    monkeypatch.setenv("PLATFORM_IDEMPOTENCY_RETENTION_HOURS", "48")
    monkeypatch.setenv("PLATFORM_IDEMPOTENCY_PURGE_INTERVAL_SECONDS", "60")
    assert (_Service().idempotency_retention_hours, _Service().idempotency_purge_interval_seconds) == (48, 60.0)
    assert _Service(idempotency_retention_hours=30).idempotency_retention_hours == 30  # by name in code
    with pytest.raises(ValidationError):
        _Service(idempotency_retention_hours=23)  # never shorter than a day
