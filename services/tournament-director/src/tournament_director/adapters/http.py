"""The director's REST calls to other services, on the kit's internal client (platform_kit.internal_client: the
internal token, the request id for the logs, the Idempotency-Key, an httpx transport in place of the network in
tests); what the director keeps is its reading of the answer: a result, a refusal, or no answer at all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from platform_kit.internal_client import InternalClient


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


class AnswerClient:
    def __init__(self, client: InternalClient) -> None:
        self._client = client

    async def post(self, path: str, body: Any, *, idempotency_key: str | None = None) -> Answer:
        try:
            response = await self._client.request("POST", path, json=body, idempotency_key=idempotency_key)
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
        await self._client.aclose()
