"""The director's REST calls to other services, on the kit's internal client (platform_kit.internal_client: the
internal token, the request id for the logs, the Idempotency-Key, an httpx transport in place of the network in
tests); an answer is read as the kit's outgoing calls read it (platform_kit.outgoing_calls: a result, a refusal,
or no answer at all)."""

from __future__ import annotations

from typing import Any

from platform_kit.internal_client import InternalClient
from platform_kit.outgoing_calls import Answer, post
from platform_kit.outgoing_calls import Unanswered as ServiceUnavailable

__all__ = ["Answer", "AnswerClient", "ServiceUnavailable"]


class AnswerClient:
    def __init__(self, client: InternalClient) -> None:
        self.client = client

    async def post(self, path: str, body: Any, *, idempotency_key: str | None = None) -> Answer:
        return await post(self.client, path, body, idempotency_key=idempotency_key)

    async def close(self) -> None:
        await self.client.aclose()
