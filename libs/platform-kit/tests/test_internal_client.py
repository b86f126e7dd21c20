"""The kit's internal client: what every service-to-service call carries, and that it leaves the answer to its
caller (the gateway relays it, the director and the totalizator read it their own way)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from opentelemetry.instrumentation.aiohttp_client import AioHttpClientInstrumentor
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF
from opentelemetry.trace import SpanKind
from platform_kit import correlation, tracing
from platform_kit.internal_client import MAX_CONNECTIONS, InternalClient
from recording_service import RecordingService


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


async def test_over_the_network_a_call_sends_what_it_carries_and_reads_the_answer_as_httpx_would() -> None:
    service = RecordingService()
    async with service as base_url:
        client = InternalClient(base_url + "/", "secret")
        answer = await client.request(
            "POST", "/internal/v1/stakes", json={"amount": 500, "name": "Niccolò"}, idempotency_key="k-1"
        )
        await client.request("GET", "/internal/v1/statement", params={"since": datetime(2026, 3, 1, tzinfo=UTC)})
        await client.aclose()
    (line, headers, body), (read_line, read_headers, _) = service.requests
    assert line == "POST /internal/v1/stakes HTTP/1.1"
    assert json.loads(body) == {"amount": 500, "name": "Niccolò"}
    assert headers["content-type"] == "application/json"
    assert (headers["x-internal-token"], headers["idempotency-key"]) == ("secret", "k-1")
    method, target, _ = read_line.split(" ")
    assert (method, urlsplit(target).path) == ("GET", "/internal/v1/statement")
    assert parse_qs(urlsplit(target).query) == {"since": ["2026-03-01T00:00:00+00:00"]}
    assert "idempotency-key" not in read_headers and "content-type" not in read_headers
    assert isinstance(answer, httpx.Response)
    assert (answer.status_code, answer.json(), answer.headers["x-seen"]) == (201, {"operation_id": 7}, "yes")
    answer.raise_for_status()  # it knows its request, as httpx's answers do


async def test_over_the_network_a_recorded_trace_gets_a_client_span_the_callee_joins() -> None:
    """Recording (an exporter configured), each call to another service is a client span of the caller's trace,
    and the callee's span is its child (platform_kit.tracing instruments aiohttp)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    # The client hooks are process-wide and set once: a recording app of another test in this process (test_tracing)
    # may have set them with its own provider, and they would send this test's client span there.
    for instrumentor in (AioHttpClientInstrumentor(), HTTPXClientInstrumentor()):
        if instrumentor.is_instrumented_by_opentelemetry:
            instrumentor.uninstrument()
    tracing.instrument_app(FastAPI(), provider, recording=True)
    service = RecordingService()
    try:
        async with service as base_url:
            client = InternalClient(base_url, "secret")
            with provider.get_tracer(__name__).start_as_current_span("a request"):
                await client.request("GET", "/internal/v1/currencies")
            await client.aclose()
    finally:
        AioHttpClientInstrumentor().uninstrument()
        HTTPXClientInstrumentor().uninstrument()
    (_, headers, _) = service.requests[0]
    client_span = next(span for span in exporter.get_finished_spans() if span.kind is SpanKind.CLIENT)
    _, trace_id, parent_id, _ = headers["traceparent"].split("-")
    assert client_span.context is not None
    assert (int(trace_id, 16), int(parent_id, 16)) == (client_span.context.trace_id, client_span.context.span_id)
