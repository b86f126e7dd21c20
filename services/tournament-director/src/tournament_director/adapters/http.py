"""The director's REST calls to other services: the internal token, the request id for the logs, and one seam
for tests — an httpx transport (e.g. `httpx.ASGITransport(app=wallet_app)`) instead of the network."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from platform_kit import correlation


@dataclass(frozen=True)
class Answer:
    """What a service answered: a 2xx result, or a refusal (4xx problem+json with its `code`)."""

    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def code(self) -> str:
        return str(self.body.get("code", "refused")) if isinstance(self.body, dict) else "refused"

    @property
    def message(self) -> str:
        return str(self.body.get("title", self.code)) if isinstance(self.body, dict) else self.code


class ServiceUnavailable(Exception):
    """The service did not answer (network error, timeout, 5xx): the call may or may not have taken effect, so
    it is made again later with the same idempotency key."""


class InternalClient:
    def __init__(
        self, base_url: str, token: str, *, timeout: float, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self._token = token
        self._http = httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)

    async def post(self, path: str, body: Any, *, idempotency_key: str | None = None) -> Answer:
        headers = {"X-Internal-Token": self._token, correlation.HEADER: correlation.current_or_new()}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        try:
            response = await self._http.post(path, json=body, headers=headers)
        except httpx.HTTPError as error:
            raise ServiceUnavailable(f"POST {path}: {error!r}") from error
        if response.status_code >= 500:
            raise ServiceUnavailable(f"POST {path}: {response.status_code}")
        try:
            payload = response.json()
        except ValueError:
            payload = None
        return Answer(response.status_code, payload)

    async def close(self) -> None:
        await self._http.aclose()
