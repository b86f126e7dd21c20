"""Traces cross the bus: a request's span and the consumer span of the event it caused share one trace, and
the consumer sees the producer's correlation id (for its logs and the events it publishes in turn)."""

from __future__ import annotations

from pathlib import Path

from messaging_fixture import CreditGranted, create_schema, metadata
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from platform_kit import correlation
from platform_kit.app import create_service_app
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.runtime import ServiceRuntime
from platform_kit.testing import eventually, running_app
from sqlalchemy.ext.asyncio import AsyncSession
from test_service_app import DemoSettings, router


async def test_trace_and_correlation_id_follow_an_event_from_request_to_consumer(tmp_path: Path) -> None:
    bus = InMemoryBus()
    exporter = InMemorySpanExporter()
    producer = ServiceRuntime(
        DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/p.db", migrate_on_start=False),
        metadata=metadata,
        migrations_dir=tmp_path,
        bus=bus,
    )
    consumer = ServiceRuntime(
        DemoSettings(
            service_name="listener", database_url=f"sqlite+aiosqlite:///{tmp_path}/c.db", migrate_on_start=False
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


async def _true(value: bool) -> bool:
    return value
