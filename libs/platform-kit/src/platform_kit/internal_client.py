"""One HTTP client for every service-to-service call: what a call carries, and when it is sent a second time.

Every call carries the internal token (`X-Internal-Token`, what `internal_api.require_internal_token` admits),
the request id of the work in progress (`X-Request-ID`, one trail through the logs), its trace context
(`traceparent`, so the callee's spans join the caller's trace), the `Idempotency-Key` when
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
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack

import httpx
from opentelemetry import propagate

from platform_kit import correlation
from platform_kit.aiohttp_sender import AiohttpSender
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


#: Connections to one service per process; the calls beyond wait for one. Twice what a service admits of one use
#: case at a time (the director: 32 keyed requests, the others waiting their turn), so that its reads still find
#: a connection while a rush of those waits there.
MAX_CONNECTIONS = 64
#: How long a call waits for a free connection before it fails with `httpx.PoolTimeout`, nothing sent. Without a
#: bound, a rush queued calls behind a slow service until the caller's own client gave up (30 s: the gateway's
#: registrations in a 3,000-player run), unable to tell whether its request had been sent.
QUEUE_SECONDS = 5.0


class InternalClient:
    """Calls one service at `base_url` over at most `max_connections` connections; closed by `aclose`.

    The calls beyond `max_connections` wait in line, in order, for `queue_timeout` at most (an asyncio.Queue of
    connections would let a newcomer take the one a waiter was woken for, and send that waiter to the back: a
    rush's p99 ran into seconds). Over the network the calls go through aiohttp (platform_kit.aiohttp_sender, a
    connection for each place, so a call that holds a place never waits inside it): httpx cost the caller 1.4 ms of
    CPU per call in a rush (a gateway relaying coupons spent more than a quarter of its time there, py-spy), aiohttp
    0.3 ms (bench/bench_internal_client.py). The answer is still an `httpx.Response` and the failures httpx's
    exceptions, what every caller reads, and a transport in place of the network (tests) is served by httpx.
    """

    def __init__(
        self,
        base_url: str,
        internal_token: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        queue_timeout: float = QUEUE_SECONDS,
        max_connections: int = MAX_CONNECTIONS,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._queue_timeout = queue_timeout
        token = {INTERNAL_TOKEN_HEADER: internal_token}
        self._sender: _Sender = (
            AiohttpSender(token, timeout, max_connections)
            if transport is None
            else _InProcess(httpx.AsyncClient(transport=transport, timeout=timeout, headers=token))
        )
        self._places = asyncio.Semaphore(max_connections)

    async def request(self, method: str, path: str, **call: Unpack[Call]) -> httpx.Response:
        """The service's answer, whatever its status. `params` left None are not sent, instants go as ISO 8601;
        `headers` are added last (e.g. the `X-Concessionaire-Id` of the player an administrator acts on)."""
        key, principal, params = call.get("idempotency_key"), call.get("principal"), call.get("params")
        sent = {correlation.HEADER: correlation.current_or_new()}
        propagate.inject(sent)  # the trace goes on (traceparent), spans recorded or not (platform_kit.tracing)
        if key is not None:
            sent[IDEMPOTENCY_KEY_HEADER] = key
        if principal is not None:
            sent.update(principal_headers(principal))
        body, payload = None, call.get("json")
        if payload is not None:  # as httpx encodes it
            sent["Content-Type"] = "application/json"
            body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        sent.update(call.get("headers") or {})
        url = self.base_url + path
        if params is not None:
            query = httpx.QueryParams({name: _query_value(v) for name, v in params.items() if v is not None})
            url = f"{url}?{query}" if query else url
        await self._take_place()
        try:
            try:
                return await self._sender.send(method, url, sent, body)
            except httpx.RemoteProtocolError:
                if method not in SAFE_METHODS and key is None:
                    raise
                return await self._sender.send(method, url, sent, body)
        finally:
            self._places.release()

    async def _take_place(self) -> None:
        """A place among the calls in flight, so a free connection; `httpx.PoolTimeout` (nothing sent: the caller
        may send the request again as it is) when none frees up within the queue timeout."""
        try:
            async with asyncio.timeout(self._queue_timeout):
                await self._places.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout(f"no connection to {self.base_url} free within {self._queue_timeout} s") from None

    async def aclose(self) -> None:
        await self._sender.aclose()


class _Sender(Protocol):
    async def send(self, method: str, url: str, headers: dict[str, str], body: bytes | None) -> httpx.Response: ...

    async def aclose(self) -> None: ...


class _InProcess:
    """Through an httpx transport in place of the network: a service's app served in the same process (tests)."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self._client = client

    async def send(self, method: str, url: str, headers: dict[str, str], body: bytes | None) -> httpx.Response:
        return await self._client.request(method, url, headers=headers, content=body)

    async def aclose(self) -> None:
        await self._client.aclose()


def _query_value(value: Any) -> Any:
    """httpx sends strings, numbers and lists of them; instants go as ISO 8601."""
    if isinstance(value, datetime):
        return value.isoformat()
    return value
