"""Traces cross the bus: a request's span and the consumer span of the event it caused share one trace, and
the consumer sees the producer's correlation id (for its logs and the events it publishes in turn)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from messaging_fixture import CreditGranted, create_schema, metadata
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from platform_kit import correlation
from platform_kit.app import create_service_app
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.runtime import ServiceRuntime
from platform_kit.testing import eventually, running_app
from platform_kit.tracing import ConsumerTelemetry, current_trace_context, tracer_provider
from prometheus_client import CollectorRegistry
from sqlalchemy.ext.asyncio import AsyncSession
from test_service_app import DemoSettings, router


async def test_trace_and_correlation_id_follow_an_event_from_request_to_consumer(tmp_path: Path) -> None:
    bus = InMemoryBus()
    exporter = InMemorySpanExporter()
    producer = ServiceRuntime(
        DemoSettings(
            database_url=f"sqlite+aiosqlite:///{tmp_path}/p.db", migrate_on_start=False, otel_traces_sample_ratio=1
        ),
        metadata=metadata,
        migrations_dir=tmp_path,
        bus=bus,
    )
    consumer = ServiceRuntime(
        DemoSettings(
            service_name="listener",
            database_url=f"sqlite+aiosqlite:///{tmp_path}/c.db",
            migrate_on_start=False,
            otel_traces_sample_ratio=1,
        ),
        metadata=metadata,
        migrations_dir=tmp_path,
        bus=bus,
    )
    for runtime in (producer, consumer):
        runtime.tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
        await create_schema(runtime.db)
    seen: list[str | None] = []

    async def remember_correlation(_: AsyncSession, envelope: Envelope) -> None:
        seen.append(correlation.current())

    consumer.on(CreditGranted.TYPE, remember_correlation)
    app = create_service_app(producer, title="Demo", description="traced", routers=[router])
    await consumer.start()
    async with running_app(app, "http://demo") as http:
        await http.post("/credits/ann/5", headers={"X-Request-ID": "trace-me"})
        await eventually(lambda: _true(bool(seen)))
    await consumer.stop()
    await bus.close()

    assert seen == ["trace-me"]
    spans = exporter.get_finished_spans()
    server = next(s for s in spans if s.kind.name == "SERVER")
    consumed = next(s for s in spans if s.name == f"consume {CreditGranted.TYPE}")
    assert consumed.context.trace_id == server.context.trace_id
    assert consumed.attributes is not None and consumed.attributes["platform.correlation_id"] == "trace-me"
    assert server.attributes is not None and server.attributes["platform.correlation_id"] == "trace-me"
    # Named after the route once routing has run, as OpenTelemetry's semantic conventions ask.
    assert server.name == "POST /credits/{account}/{amount}"
    assert server.attributes["http.route"] == "/credits/{account}/{amount}"
    # One span for the request, none per ASGI message sent or received.
    assert [s.name for s in spans if s.kind.name == "INTERNAL" and "http" in s.name] == []


async def _true(value: bool) -> bool:
    return value


async def test_fastapi_adds_no_span_of_its_own_when_something_sets_a_global_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kit owns a request's span (sampled, none here) and metrics: a provider set for the whole process, as
    an `opentelemetry-instrument` wrapper sets one, does not make FastAPI record one of its own for every request."""
    exporter = InMemorySpanExporter()
    process_wide = SdkTracerProvider()
    process_wide.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: process_wide)
    runtime = ServiceRuntime(
        DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/d.db", migrate_on_start=False),
        metadata=metadata,
        migrations_dir=tmp_path,
        bus=InMemoryBus(),
    )
    await create_schema(runtime.db)
    app = create_service_app(runtime, title="Demo", description="not sampled", routers=[router])
    async with running_app(app, "http://demo") as http:
        assert (await http.post("/credits/ann/5")).status_code == 200
    assert exporter.get_finished_spans() == ()


def _untraced(tmp_path: Path) -> ServiceRuntime:
    """A service with no exporter: it samples no trace of its own."""
    return ServiceRuntime(
        DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/p.db", migrate_on_start=False),
        metadata=metadata,
        migrations_dir=tmp_path,
        bus=InMemoryBus(),
    )


async def test_without_an_exporter_nothing_is_recorded_but_the_trace_context_still_flows(tmp_path: Path) -> None:
    """Recording spans that go nowhere costs CPU on every request; the trace id still reaches the events a
    request publishes, so a caller's sampled trace (or a later exporter) links them."""
    runtime = _untraced(tmp_path)
    exporter = InMemorySpanExporter()
    runtime.tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    await create_schema(runtime.db)
    published: list[Envelope] = []

    async def keep(_: AsyncSession, envelope: Envelope) -> None:
        published.append(envelope)

    runtime.on(CreditGranted.TYPE, keep)
    app = create_service_app(runtime, title="Demo", description="untraced", routers=[router])
    caller_trace = "0af7651916cd43dd8448eb211c80319c"
    async with running_app(app, "http://demo") as http:
        await http.post("/credits/ann/5", headers={"traceparent": f"00-{caller_trace}-b7ad6b7169203331-00"})
        await eventually(lambda: _true(bool(published)))

    assert exporter.get_finished_spans() == ()
    assert published[0].trace_context["traceparent"].split("-")[1] == caller_trace


async def test_without_an_exporter_a_request_still_starts_a_trace_its_events_share(tmp_path: Path) -> None:
    """With no span recorded, each request still gets a trace id of its own (not the previous request's, not
    none), so what one request published can be found together downstream."""
    runtime = _untraced(tmp_path)
    assert not runtime.records_traces
    await create_schema(runtime.db)
    published: list[Envelope] = []

    async def keep(_: AsyncSession, envelope: Envelope) -> None:
        published.append(envelope)

    runtime.on(CreditGranted.TYPE, keep)
    app = create_service_app(runtime, title="Demo", description="untraced", routers=[router])
    async with running_app(app, "http://demo") as http:
        await http.post("/credits/ann/5")
        await http.post("/credits/bob/7")
        await eventually(lambda: _true(len(published) == 2))

    trace_ids = [envelope.trace_context["traceparent"].split("-")[1] for envelope in published]
    assert len(set(trace_ids)) == 2 and "0" * 32 not in trace_ids


async def test_a_consumer_continues_its_producers_trace_with_a_span_only_when_that_trace_is_sampled() -> None:
    """An unsampled producer's message gets no consumer span (the parent-based sampler would not record it, and
    building it was most of what consuming a message cost), but its handler still runs in the producer's trace:
    what it publishes carries that trace on. A sampled producer's message gets its recorded consumer span."""
    exporter = InMemorySpanExporter()
    provider = tracer_provider("listener", "", SimpleSpanProcessor(exporter))  # records every trace it may
    registry = CollectorRegistry()
    telemetry = ConsumerTelemetry(provider, registry)
    seen: list[tuple[str, str | None]] = []

    async def handler(envelope: Envelope) -> None:
        seen.append((current_trace_context()["traceparent"].split("-")[1], correlation.current()))

    handle = telemetry.wrap("listener", handler)
    unsampled, sampled = "0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736"
    for trace_id, flags in ((unsampled, "00"), (sampled, "01")):
        await handle(
            Envelope(
                id=trace_id,
                type=CreditGranted.TYPE,
                schema_version=1,
                occurred_at=datetime.now(UTC),
                producer="demo",
                correlation_id=f"request-{flags}",
                payload={"account": "ann", "amount": 5},
                trace_context={"traceparent": f"00-{trace_id}-b7ad6b7169203331-{flags}"},
            )
        )

    assert seen == [(unsampled, "request-00"), (sampled, "request-01")]
    (consumed,) = exporter.get_finished_spans()
    assert (consumed.name, f"{consumed.context.trace_id:032x}") == (f"consume {CreditGranted.TYPE}", sampled)
    assert consumed.parent is not None and f"{consumed.parent.span_id:016x}" == "b7ad6b7169203331"
    # Both messages' age observed, under their type.
    count = registry.get_sample_value("bus_message_age_seconds_count", {"type": CreditGranted.TYPE})
    assert count == 2


async def test_without_an_exporter_a_sampled_callers_request_is_still_recorded(tmp_path: Path) -> None:
    """The parent-based sampler follows a caller that samples its trace: the request's span is recorded, in the
    caller's trace, even where this service samples nothing of its own (an unsampled caller's is not: above)."""
    runtime = _untraced(tmp_path)
    assert not runtime.records_traces
    exporter = InMemorySpanExporter()
    runtime.tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    await create_schema(runtime.db)
    app = create_service_app(runtime, title="Demo", description="untraced", routers=[router])
    caller_trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    async with running_app(app, "http://demo") as http:
        await http.post("/credits/ann/5", headers={"traceparent": f"00-{caller_trace}-b7ad6b7169203331-01"})
        await http.post(
            "/credits/bob/5", headers={"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"}
        )

    (server,) = [span for span in exporter.get_finished_spans() if span.kind.name == "SERVER"]
    assert f"{server.context.trace_id:032x}" == caller_trace
