"""Answering a gateway route with the owning service's answer, as it came: status, body and the headers a client
needs (content type, a download's file name, `Idempotent-Replayed`). The body is passed on as bytes, never
parsed and re-serialised, so a proxy adds no work per byte and cannot alter an amount or a history on the way.

    @router.get("/draws/{draw_id}")
    async def draw(draw_id: str, request: Request, principal: Anyone) -> Response:
        return await relay(clients_of(request).totalizator, "GET", f"/v1/draws/{quote(draw_id)}")

Refusals never get here: `ServiceClient.request` raises them, and the problem handlers relay them unchanged.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import Request, Response

from gateway.adapters.service_client import PlatformClients, ServiceClient
from gateway.api.access import services_of
from gateway.domain.roles import Principal

PASSED_HEADERS = ("content-disposition", "idempotent-replayed")


def clients_of(request: Request) -> PlatformClients:
    return services_of(request).clients


def segment(value: str | int) -> str:
    """One path segment of a downstream URL: a client's id can never add a segment or a query."""
    return quote(str(value), safe="")


async def relay(
    client: ServiceClient,
    method: str,
    path: str,
    *,
    principal: Principal | None = None,
    json: Any = None,
    params: dict[str, Any] | None = None,
    key: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    answer = await client.request(
        method, path, json=json, params=params, idempotency_key=key, principal=principal, headers=headers
    )
    passed = {name: answer.headers[name] for name in PASSED_HEADERS if name in answer.headers}
    return Response(
        content=answer.content,
        status_code=answer.status_code,
        media_type=answer.headers.get("content-type"),
        headers=passed,
    )
