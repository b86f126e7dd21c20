"""What every service's tests share (registered as a pytest plugin in the root conftest): fixtures for the
real PostgreSQL and RabbitMQ on the machine, SQLite databases already at a service's latest migration, a
service app started in process with an HTTP client, and `eventually` to wait for what a test expects.

Outside CI, a test that needs a server which is not running is skipped with a loud reason; with CI=true it
fails instead, so a green CI run always means the integration tests really ran.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlparse

import httpx
import pytest

from platform_kit.migrations import upgrade_to_head

if TYPE_CHECKING:
    from fastapi import FastAPI

    from platform_kit.db import Database

POSTGRES_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
T = TypeVar("T")
RABBITMQ_URL = os.environ.get("TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672/")


def _reachable(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 0), timeout=1):
            return True
    except OSError:
        return False


def require(url: str, what: str) -> None:
    if _reachable(url):
        return
    reason = f"{what} is not reachable at {url}: start it (see README) — integration test NOT run"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason)
    pytest.skip(reason)


async def create_database() -> str:
    """A fresh, empty PostgreSQL database; returns its asyncpg SQLAlchemy URL."""
    import asyncpg

    name = f"test_{uuid.uuid4().hex[:16]}"
    connection = await asyncpg.connect(POSTGRES_ADMIN_URL)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{name}"


async def drop_database(url: str) -> None:
    import asyncpg

    name = url.rsplit("/", 1)[1]
    connection = await asyncpg.connect(POSTGRES_ADMIN_URL)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def delete_queues(url: str, *names: str) -> None:
    """Delete these RabbitMQ queues (and the messages in them), each on a channel of its own: one that fails
    closes only its channel."""
    import aio_pika

    connection = await aio_pika.connect(url)
    async with connection:
        for name in names:
            channel = await connection.channel()
            await channel.queue_delete(name)


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    require(POSTGRES_ADMIN_URL, "PostgreSQL")
    url = await create_database()
    try:
        yield url
    finally:
        await drop_database(url)


@pytest.fixture
def rabbitmq_url() -> str:
    require(RABBITMQ_URL, "RabbitMQ")
    return RABBITMQ_URL


@pytest.fixture
def unique_name() -> str:
    """A name no other test (or earlier run) uses, for queues and exchanges' consumers."""
    return f"test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield _sqlite_url(tmp_path / "service.db")


def _sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


class MigratedSqlite:
    """SQLite databases at a service's latest migration, each migrated once per test session (per xdist worker)
    and copied for every test that asks: migrating a database per test costs more than most tests do. A service
    started on a copy is started with `migrate_on_start=False`."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._templates: dict[Path, Path] = {}

    def copy(self, migrations: Path, destination: Path) -> str:
        """A fresh database at `destination` (a file path) as the Alembic folder `migrations` builds it; its URL."""
        shutil.copyfile(self._template(migrations), destination)
        return _sqlite_url(destination)

    def _template(self, migrations: Path) -> Path:
        template = self._templates.get(migrations)
        if template is None:
            template = self._folder / f"{len(self._templates)}-{migrations.parent.name}.db"
            # In a thread of its own: Alembic's env.py runs an event loop, which cannot start inside a test's.
            with ThreadPoolExecutor(max_workers=1) as thread:
                thread.submit(upgrade_to_head, _sqlite_url(template), migrations).result()
            self._templates[migrations] = template
        return template


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> MigratedSqlite:
    """`migrated_sqlite.copy(MIGRATIONS, tmp_path / "service.db")`: the URL of a migrated database of the test's own."""
    return MigratedSqlite(tmp_path_factory.mktemp("migrated"))


@contextmanager
def recorded_statements(db: Database) -> Iterator[list[tuple[str, int]]]:
    """Each SQL statement `db` sends while inside, with the number of parameter rows it carries (an executemany
    is one statement of many rows): for tests that bound the round trips a use case makes."""
    from sqlalchemy import event

    seen: list[tuple[str, int]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        seen.append((" ".join(statement.split()), len(parameters) if executemany else 1))

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", record)


class DatabaseTraffic:
    """What every engine of the process sends to each database while inside (`with DatabaseTraffic() as t:`),
    counted by the database's name in its URL: statements, BEGINs and COMMITs. A use case's round trips, which
    a loaded machine does not change the way it changes wall-clock rates (the benchmarks report them)."""

    def __init__(self) -> None:
        self.statements: Counter[str] = Counter()
        self.begins: Counter[str] = Counter()
        self.commits: Counter[str] = Counter()
        #: Every statement's SQL, whichever database it went to, in the order sent.
        self.sql: list[str] = []

    def round_trips(self, database: str) -> int:
        return self.statements[database] + self.begins[database] + self.commits[database]

    def __enter__(self) -> DatabaseTraffic:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.listen(Engine, "before_cursor_execute", self._statement)
        event.listen(Engine, "begin", self._begin)
        event.listen(Engine, "commit", self._commit)
        return self

    def __exit__(self, *_: object) -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.remove(Engine, "before_cursor_execute", self._statement)
        event.remove(Engine, "begin", self._begin)
        event.remove(Engine, "commit", self._commit)

    def _statement(self, connection: Any, cursor: Any, statement: str, *_: object) -> None:
        self.statements[str(connection.engine.url.database)] += 1
        self.sql.append(" ".join(statement.split()))

    def _begin(self, connection: Any) -> None:
        self.begins[str(connection.engine.url.database)] += 1

    def _commit(self, connection: Any) -> None:
        self.commits[str(connection.engine.url.database)] += 1


@asynccontextmanager
async def running_app(app: FastAPI, base_url: str, **client: Any) -> AsyncIterator[httpx.AsyncClient]:
    """`app` started as a server starts it (its lifespan: migrations, bus, consumers, relay, background tasks)
    and an HTTP client calling it in process (`client`: more httpx.AsyncClient options, such as headers); on
    exit the client is closed, then the app stopped."""
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base_url, **client) as http,
    ):
        yield http


async def eventually(
    check: Callable[[], Awaitable[T]],
    timeout: float = 10.0,
    interval: float = 0.05,
    *,
    progress: Callable[[], Hashable] | None = None,
) -> T:
    """Poll an async `check()` until it returns a truthy value; fail with the last value after `timeout`.

    With `progress` (a cheap reading of how far the awaited work has got, such as how many messages a bus has
    carried), `timeout` counts from the last change of that reading instead: long work that keeps moving is
    waited for however loaded the machine is, and work that stopped moving fails `timeout` after its last step.
    """
    loop = asyncio.get_running_loop()
    reading = progress() if progress else None
    deadline = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if progress is not None and (now := progress()) != reading:
            reading, deadline = now, loop.time() + timeout
        elif loop.time() > deadline:
            stalled = f" without progress (still at {reading!r})" if progress else ""
            raise AssertionError(f"condition not met within {timeout}s{stalled} (last value: {value!r})")
        await asyncio.sleep(interval)
