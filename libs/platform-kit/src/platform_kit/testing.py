"""Pytest fixtures for the real PostgreSQL and RabbitMQ on the machine (registered in the root conftest).

Outside CI, a test that needs a server which is not running is skipped with a loud reason; with CI=true it
fails instead, so a green CI run always means the integration tests really ran.
"""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar
from urllib.parse import urlparse

import pytest

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
def sqlite_url(tmp_path: object) -> Iterator[str]:
    yield f"sqlite+aiosqlite:///{tmp_path}/service.db"


async def eventually(check: Callable[[], Awaitable[T]], timeout: float = 10.0, interval: float = 0.05) -> T:
    """Poll an async `check()` until it returns a truthy value; fail with the last value after `timeout`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"condition not met within {timeout}s (last value: {value!r})")
        await asyncio.sleep(interval)
