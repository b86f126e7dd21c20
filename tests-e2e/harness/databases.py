"""One fresh PostgreSQL database per service and run (`platform_kit.testing.create_database`), dropped after."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

from platform_kit.testing import create_database, drop_database


async def create_databases(services: Iterable[str]) -> dict[str, str]:
    """service → its asyncpg SQLAlchemy URL."""
    names = list(services)
    urls = await asyncio.gather(*(create_database() for _ in names))
    return dict(zip(names, urls, strict=True))


async def drop_databases(urls: Iterable[str]) -> None:
    """Drop every database, even when some of them cannot be (teardown must go on)."""
    for url in urls:
        with contextlib.suppress(Exception):
            await drop_database(url)
