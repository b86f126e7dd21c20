"""The e2e harness's readers (`harness.readers`), patient with a platform that has just been overloaded: when
the PostgreSQL server has no connection left (the platform's pools may hold them all, and the server is shared)
or a service answers a 5xx, the read is tried again for up to `PATIENCE` seconds instead of failing the checks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
import httpx
from harness.readers import Readers

T = TypeVar("T")
PATIENCE = 120.0
PAUSE = 1.0
_SERVER_FULL = (asyncpg.TooManyConnectionsError, asyncpg.CannotConnectNowError)


class PatientReaders(Readers):
    async def get(self, service: str, path: str, params: dict[str, Any] | None = None) -> Any:
        return await _patiently(lambda: super(PatientReaders, self).get(service, path, params))

    async def rows(self, service: str, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await _patiently(lambda: super(PatientReaders, self).rows(service, sql, *args))


async def _patiently(read: Callable[[], Awaitable[T]]) -> T:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while True:
        try:
            return await read()
        except _SERVER_FULL:
            if loop.time() > deadline:
                raise
        except httpx.HTTPStatusError as error:
            if error.response.status_code < 500 or loop.time() > deadline:
                raise
        await asyncio.sleep(PAUSE)
