"""Read-only access to the services for the checks: their own REST APIs (with the run's internal token, as a
service would call them), and — only where no API shows what must be checked, and only here in tests — their
databases, with plain SELECTs."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx

from harness.client import retrying
from harness.processes import Platform

STAFF_HEADERS = {"X-Principal-Role": "admin", "X-Principal-Id": "e2e-checks"}


class Readers:
    def __init__(self, platform: Platform, http: httpx.AsyncClient, *, retry_for: float = 30.0) -> None:
        self.platform = platform
        self.http = http
        self.retry_for = retry_for

    async def get(self, service: str, path: str, params: dict[str, Any] | None = None) -> Any:
        headers = {"X-Internal-Token": self.platform.internal_token, **STAFF_HEADERS}
        request = self.http.build_request("GET", self.platform.url(service) + path, params=params, headers=headers)
        answer = await retrying(self.http, request, self.retry_for)
        answer.raise_for_status()
        return answer.json()

    async def pages(self, service: str, path: str, *, limit: int = 500) -> list[dict[str, Any]]:
        """Every item of a cursor-paged listing (`{items, next_cursor}`), newest first."""
        items: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await self.get(service, path, {"limit": limit, **({"cursor": cursor} if cursor else {})})
            items += page["items"]
            cursor = page.get("next_cursor")
            if not cursor:
                return items

    async def rows(self, service: str, sql: str, *args: Any) -> list[asyncpg.Record]:
        """A SELECT on the service's own database (tests only: a service never reads another's database)."""
        url = self.platform.databases[service].replace("postgresql+asyncpg://", "postgresql://", 1)
        connection = await asyncpg.connect(url)
        try:
            return list(await connection.fetch(sql, *args))
        finally:
            await connection.close()
