"""One HTTP client for every service-to-service call: what a call carries, and when it is sent a second time.

Every call carries the internal token (`X-Internal-Token`, what `internal_api.require_internal_token` admits),
the request id of the work in progress (`X-Request-ID`, one trail through the logs), the `Idempotency-Key` when
the call has one, and, when the call is made for someone, who (`X-Principal-*`, what `internal_api` reads back).
Tests and benchmarks put an httpx transport (e.g. `httpx.ASGITransport(app=wallet_app)`) in place of the network.

The client does not interpret answers: a caller decides what a 4xx, a 5xx or a network error means to it (the
gateway relays them, the director and the totalizator retry later under the same key). Transport errors reach it
as httpx raises them, with one exception: a connection the service closed as the request went out, unanswered,
is sent again once on a fresh connection — for a read (harmless to repeat) or a keyed request (the service
carries it out once) only; any other request could have been acted on, so its caller learns of the failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack

import httpx

from platform_kit import correlation
from platform_kit.idempotency import IDEMPOTENCY_KEY_HEADER
from platform_kit.internal_api import INTERNAL_TOKEN_HEADER

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_TIMEOUT_SECONDS = 10.0


class Caller(Protocol):
    """Who a call is made for, as the gateway authenticated them (its `Principal` is one)."""

    @property
    def role(self) -> str: ...

    @property
    def subject_id(self) -> str: ...

    @property
    def concessionaire_id(self) -> str | None: ...


def principal_headers(caller: Caller) -> dict[str, str]:
    """The `X-Principal-*` headers `internal_api.PrincipalHeaders` reads back (no concessionaire: none sent)."""
    headers = {"X-Principal-Role": str(caller.role), "X-Principal-Id": caller.subject_id}
    if caller.concessionaire_id:
        headers["X-Concessionaire-Id"] = caller.concessionaire_id
    return headers


class Call(TypedDict, total=False):
    """What a call may carry besides its method and path; a client built on this one takes the same."""

    json: Any
    params: Mapping[str, Any] | None
    idempotency_key: str | None
    principal: Caller | None
    headers: Mapping[str, str] | None


#: Connections to one service per process (httpx's default); the calls beyond wait for one.
MAX_CONNECTIONS = 100


class InternalClient:
    """Calls one service at `base_url`; one connection pool, closed by `aclose`."""

    def __init__(
        self,
        base_url: str,
        internal_token: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self._http = httpx.AsyncClient(
            base_url=base_url,
            timeout=timeout,
            transport=transport,
            headers={INTERNAL_TOKEN_HEADER: internal_token},
            # Keep every connection a rush opened (httpx keeps 20 by default): past 20 calls in flight, each call
            # otherwise opened a new TCP connection to the service and closed it after its answer.
            limits=httpx.Limits(max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_CONNECTIONS),
        )
        # Calls beyond the pool wait here, not in httpx's queue: httpx matches every queued request against every
        # connection whenever one frees up, which a rush of a thousand calls made most of a gateway's CPU.
        self._slots = asyncio.Semaphore(MAX_CONNECTIONS)

    async def request(self, method: str, path: str, **call: Unpack[Call]) -> httpx.Response:
        """The service's answer, whatever its status. `params` left None are not sent, instants go as ISO 8601;
        `headers` are added last (e.g. the `X-Concessionaire-Id` of the player an administrator acts on)."""
        key, principal, params = call.get("idempotency_key"), call.get("principal"), call.get("params")
        sent = {correlation.HEADER: correlation.current_or_new()}
        if key is not None:
            sent[IDEMPOTENCY_KEY_HEADER] = key
        if principal is not None:
            sent.update(principal_headers(principal))
        sent.update(call.get("headers") or {})
        query = None if params is None else {name: _query_value(v) for name, v in params.items() if v is not None}
        json = call.get("json")
        async with self._slots:
            try:
                return await self._http.request(method, path, json=json, params=query, headers=sent)
            except httpx.RemoteProtocolError:
                if method not in SAFE_METHODS and key is None:
                    raise
                return await self._http.request(method, path, json=json, params=query, headers=sent)

    async def aclose(self) -> None:
        await self._http.aclose()


def _query_value(value: Any) -> Any:
    """httpx sends strings, numbers and lists of them; instants go as ISO 8601."""
    if isinstance(value, datetime):
        return value.isoformat()
    return value
