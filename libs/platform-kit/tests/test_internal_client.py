"""The kit's internal client: what every service-to-service call carries, and that it leaves the answer to its
caller (the gateway relays it, the director and the totalizator read it their own way)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF
from platform_kit import correlation
from platform_kit.internal_client import MAX_CONNECTIONS, InternalClient


@dataclass(frozen=True)
class Caller:
    role: str
    subject_id: str
    concessionaire_id: str | None = None


def recording(status: int = 200) -> tuple[list[httpx.Request], httpx.MockTransport]:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json={"code": "whatever"})

    return seen, httpx.MockTransport(answer)


async def test_a_call_carries_the_token_request_id_key_principal_and_extra_headers() -> None:
    seen, transport = recording()
    client = InternalClient("http://wallet.test", "secret", transport=transport)
    token = correlation.bind("req-7")
    try:
        await client.request(
            "POST",
            "/internal/v1/holds",
            json={},
            idempotency_key="k-1",
            principal=Caller("operator", "op-1", "conc-a"),
            headers={"X-Concessionaire-Id": "conc-b"},
        )
        await client.request("GET", "/internal/v1/currencies", principal=Caller("admin", "ad-1"))
    finally:
        correlation.reset(token)
        await client.aclose()
    keyed, read = seen
    assert {name: keyed.headers.get(name) for name in ("x-internal-token", "x-request-id", "idempotency-key")} == {
        "x-internal-token": "secret",
        "x-request-id": "req-7",
        "idempotency-key": "k-1",
    }
    assert (keyed.headers["x-principal-role"], keyed.headers["x-principal-id"]) == ("operator", "op-1")
    assert keyed.headers["x-concessionaire-id"] == "conc-b", "headers given by the caller come last"
    assert "idempotency-key" not in read.headers and "x-concessionaire-id" not in read.headers


async def test_a_call_carries_the_trace_context_when_no_span_is_recorded() -> None:
    """The callee's spans join the caller's trace though nothing records here (no exporter: the sampler records
    none, and httpx is not instrumented, issue 14)."""
    seen, transport = recording()
    client = InternalClient("http://wallet.test", "secret", transport=transport)
    tracer = TracerProvider(sampler=ALWAYS_OFF).get_tracer(__name__)
    try:
        with tracer.start_as_current_span("a request") as span:
            assert not span.is_recording()
            await client.request("GET", "/internal/v1/currencies")
        await client.request("GET", "/internal/v1/currencies")  # outside any trace: nothing to carry
    finally:
        await client.aclose()
    in_trace, outside = seen
    _, trace_id, span_id, _ = in_trace.headers["traceparent"].split("-")
    assert (int(trace_id, 16), int(span_id, 16)) == (span.get_span_context().trace_id, span.get_span_context().span_id)
    assert "traceparent" not in outside.headers


async def test_params_left_none_are_not_sent_and_instants_go_as_iso_8601() -> None:
    seen, transport = recording()
    client = InternalClient("http://wallet.test", "secret", transport=transport)
    since = datetime(2026, 3, 1, tzinfo=UTC)
    await client.request("GET", "/statement", params={"since": since, "until": None, "limit": 20})
    await client.aclose()
    assert dict(seen[0].url.params) == {"since": "2026-03-01T00:00:00+00:00", "limit": "20"}


async def test_the_answer_is_the_callers_to_read_whatever_its_status() -> None:
    _, transport = recording(503)
    client = InternalClient("http://wallet.test", "secret", transport=transport)
    answer = await client.request("POST", "/internal/v1/holds", json={}, idempotency_key="k-1")
    await client.aclose()
    assert (answer.status_code, answer.json()) == (503, {"code": "whatever"})


class HeldOpen(httpx.AsyncBaseTransport):
    """A service that answers nothing until `release` is set: every call to it holds a place."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.release = asyncio.Event()
        self.all_held = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.received.append(request.url.path)
        if len(self.received) == MAX_CONNECTIONS:
            self.all_held.set()
        await self.release.wait()
        return httpx.Response(200, json={"path": request.url.path})


async def test_a_call_with_every_place_taken_fails_after_the_queue_timeout_unsent_and_places_come_back() -> None:
    """A rush behind a slow service is told within the queue timeout that nothing was sent (httpx.PoolTimeout: the
    gateway answers 503 `gateway_busy`), instead of waiting until its own caller gives up not knowing."""
    service = HeldOpen()
    client = InternalClient("http://director.test", "secret", queue_timeout=0.05, transport=service)
    held = [asyncio.create_task(client.request("GET", f"/held/{n}")) for n in range(MAX_CONNECTIONS)]
    await service.all_held.wait()
    with pytest.raises(httpx.PoolTimeout):
        await client.request("POST", "/internal/v1/holds", json={}, idempotency_key="k-1")
    assert "/internal/v1/holds" not in service.received, "the refused call was never sent"
    service.release.set()
    assert all(answer.status_code == 200 for answer in await asyncio.gather(*held))
    late = await client.request("GET", "/after")
    await client.aclose()
    assert late.json() == {"path": "/after"}, "the held calls' places were given back"
