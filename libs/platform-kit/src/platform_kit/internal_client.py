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
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack

import httpx
from opentelemetry import propagate

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

    Each connection is a lane: an httpx client of one connection, taken by one call at a time from a stack of free
    lanes (the most recently used first, so a light load keeps reusing a few warm connections). One httpx pool
    of many connections instead costs every call a walk over all of them, twice (httpcore checks each pooled
    connection, with a poll syscall for each idle one and, for each idle one, every other): 4 to 5 ms of CPU per
    call with 200 calls at once over 100 or 32 connections, against 1.6 to 2 ms as lanes
    (bench/bench_internal_client.py); the walk was a quarter of a gateway's time relaying registrations in a
    3,000-player rush (py-spy).
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
        self.base_url = base_url
        self._queue_timeout = queue_timeout

        def lane(**network: Any) -> httpx.AsyncClient:
            return httpx.AsyncClient(
                base_url=base_url, timeout=timeout, headers={INTERNAL_TOKEN_HEADER: internal_token}, **network
            )

        if transport is None:
            # One TLS context for every lane: building one loads the CA bundle (about 50 ms each).
            tls = httpx.create_ssl_context()
            one = httpx.Limits(max_connections=1, max_keepalive_connections=1)
            self._clients = [lane(verify=tls, limits=one) for _ in range(max_connections)]
        else:  # a transport in place of the network (tests) has no pool to walk: one client, as many places
            self._clients = [lane(transport=transport)] * max_connections
        self._free = list(self._clients)  # the last one put back is the next one taken
        # Who waits for a lane, in order: an asyncio.Queue of lanes would let a newcomer take the lane a waiter was
        # woken for, and send that waiter to the back (a rush's p99 ran into seconds).
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
        sent.update(call.get("headers") or {})
        query = None if params is None else {name: _query_value(v) for name, v in params.items() if v is not None}
        json = call.get("json")
        await self._take_place()
        lane = self._free.pop()
        try:
            return await lane.request(method, path, json=json, params=query, headers=sent)
        except httpx.RemoteProtocolError:
            if method not in SAFE_METHODS and key is None:
                raise
            return await lane.request(method, path, json=json, params=query, headers=sent)
        finally:
            self._free.append(lane)
            self._places.release()

    async def _take_place(self) -> None:
        """A place among the calls in flight, so a free lane; `httpx.PoolTimeout` (nothing sent: the caller may
        send the request again as it is) when none frees up within the queue timeout."""
        try:
            async with asyncio.timeout(self._queue_timeout):
                await self._places.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout(f"no connection to {self.base_url} free within {self._queue_timeout} s") from None

    async def aclose(self) -> None:
        for client in set(self._clients):
            await client.aclose()


def _query_value(value: Any) -> Any:
    """httpx sends strings, numbers and lists of them; instants go as ISO 8601."""
    if isinstance(value, datetime):
        return value.isoformat()
    return value
