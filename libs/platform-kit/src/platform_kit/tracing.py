"""Traces across services (OpenTelemetry): HTTP requests in and out, and messages through the bus, each span
tagged with the correlation id. Spans are exported over OTLP/HTTP when an endpoint is configured. Which traces
are recorded is a head-sampling decision (`otel_traces_sample_ratio`): by default all of them when there is an
endpoint to send them to and none without one. A trace that is not recorded still has its context (trace id
and parent) carried from service to service, so a sampled caller's trace continues downstream."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from fastapi import FastAPI
from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.instrumentation.aiohttp_client import AioHttpClientInstrumentor
from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanProcessor
from opentelemetry.sdk.trace.id_generator import RandomIdGenerator
from opentelemetry.sdk.trace.sampling import ParentBased, TraceIdRatioBased
from opentelemetry.semconv.attributes.http_attributes import HTTP_ROUTE
from prometheus_client import CollectorRegistry, Histogram
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.types import ASGIApp, Receive, Scope, Send

from platform_kit import correlation
from platform_kit.bus.envelope import Envelope
from platform_kit.inbox import SessionHandler

CORRELATION_ATTRIBUTE = "platform.correlation_id"


def tracer_provider(
    service: str, otlp_endpoint: str = "", *processors: SpanProcessor, sample_ratio: float | None = None
) -> TracerProvider:
    """`sample_ratio`: the share of new traces recorded (a caller's decision, in its trace context, is followed);
    by default 1 with an endpoint and 0 without: recording spans nobody exports cost the gateway about a tenth
    of its CPU per request (issue 14)."""
    ratio = recorded_share(otlp_endpoint, sample_ratio, bool(processors))
    provider = TracerProvider(
        resource=Resource.create({"service.name": service}), sampler=ParentBased(TraceIdRatioBased(ratio))
    )
    if otlp_endpoint:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=otlp_endpoint)))
    for processor in processors:
        provider.add_span_processor(processor)
    return provider


def recorded_share(otlp_endpoint: str, sample_ratio: float | None, has_processors: bool = False) -> float:
    """The share of new traces recorded: as configured, else all of them when they go somewhere, else none."""
    if sample_ratio is not None:
        return sample_ratio
    return 1.0 if otlp_endpoint or has_processors else 0.0


def instrument_app(app: FastAPI, provider: TracerProvider, *, recording: bool) -> None:
    """A server span per request, outermost, so every middleware runs inside it.

    Recording (`recording`: some traces are sampled): OpenTelemetry's ASGI middleware, the span named by the
    method at first and by the route template once routing has run (`name_server_span`) — OpenTelemetry's
    FastAPI instrumentor matches every request against the routes a second time to name it up front — and no
    spans for each ASGI message sent or received (`exclude_spans`): a request's one span says all an operator
    reads. Not recording: `TraceContextMiddleware`, which only carries the trace context; the ASGI middleware
    collects a request's attributes and duration whether or not its span is recorded, a third of the kit's
    cost per request (py-spy).
    """
    if recording:
        app.add_middleware(
            OpenTelemetryMiddleware,
            excluded_urls="healthz,readyz,metrics",
            default_span_details=_method_only,
            tracer_provider=provider,
            exclude_spans=["receive", "send"],
        )
        # A client span per outgoing call: the services' calls to each other go through aiohttp
        # (platform_kit.internal_client), the rest (webhooks) through httpx. One process-wide hook each: in
        # standalone mode the first service that records records the client spans of all six.
        for instrumentor in (AioHttpClientInstrumentor(), HTTPXClientInstrumentor()):
            if not instrumentor.is_instrumented_by_opentelemetry:
                instrumentor.instrument(tracer_provider=provider)
    else:
        app.add_middleware(TraceContextMiddleware, tracer=provider.get_tracer(__name__))
    # Either way the calls to other services carry the trace context: the internal client puts it in
    # (platform_kit.internal_client). Not recording, no client is instrumented: httpx's hook built a span, its
    # name and attributes for every call, recorded or not — a twentieth of a gateway's CPU relaying coupons (py-spy).


class TraceContextMiddleware:
    """A request's trace context without a recorded span: the caller's (`traceparent`), or a new trace, current
    while the request runs, so that the calls it makes and the events it publishes carry it on. A caller's
    sampled trace is still followed (the sampler is parent-based): its span is recorded, without attributes.
    A caller's unsampled trace is made current as it came, without a span of its own that nobody would record
    (18 µs a request, every service's requests from another service carrying one; 9 µs without). A request with no
    trace (a client's, at the gateway) starts one that is not recorded either — this middleware serves only where
    new traces are never sampled — made here rather than through the tracer, whose sampler and span would say so
    at twice the cost (issue 14)."""

    def __init__(self, app: ASGIApp, tracer: trace.Tracer) -> None:
        self.app = app
        self.tracer = tracer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        carrier = {
            name.decode("latin-1"): value.decode("latin-1")
            for name, value in scope.get("headers") or ()
            if name in _TRACE_HEADERS
        }
        parent = propagate.extract(carrier) if carrier else None
        if parent is not None and not _unsampled(parent):  # a caller's sampled trace: its span is recorded
            with self.tracer.start_as_current_span(
                str(scope.get("method") or scope["type"]), context=parent, kind=trace.SpanKind.SERVER
            ):
                await self.app(scope, receive, send)
            return
        with _made_current(_new_unsampled_trace() if parent is None else parent):
            await self.app(scope, receive, send)


#: The W3C trace context headers, as ASGI gives header names (lower-case bytes).
_TRACE_HEADERS = frozenset({b"traceparent", b"tracestate"})


def _method_only(scope: Scope) -> tuple[str, dict[str, str]]:
    return str(scope.get("method") or scope["type"]), {}


def name_server_span(method: str, route_template: str) -> None:
    """Names the request's span after its route (`GET /players/{player_id}`), as the instrumentor would."""
    span = trace.get_current_span()
    if span.is_recording():
        span.update_name(f"{method} {route_template}")
        span.set_attribute(HTTP_ROUTE, route_template)


def current_trace_context() -> dict[str, str]:
    """The W3C trace context of the current span, to travel in an envelope."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


def tag_current_span(correlation_id: str) -> None:
    trace.get_current_span().set_attribute(CORRELATION_ATTRIBUTE, correlation_id)


class ConsumerTelemetry:
    """Wraps a message handler: a consumer span that continues the producer's trace, the producer's
    correlation id bound for logs and for the events the handler publishes, and the message's age (lag).

    A message whose producer's trace is not sampled gets no span of its own: the sampler follows the parent
    (`tracer_provider`), so that span would not be recorded, and building it (ids, sampler, attributes) was most
    of the 28 µs a message this wrapper cost — the gateways take every table event, on every instance (py-spy,
    capacity run). The producer's trace context is made current instead, so what the handler publishes still
    carries the trace on, as unsampled as it came."""

    def __init__(self, provider: TracerProvider, registry: CollectorRegistry) -> None:
        self.tracer = provider.get_tracer("platform_kit.bus")
        self.age = Histogram(
            "bus_message_age_seconds",
            "Time from an event's occurrence to its handling by this service (consumer lag)",
            ["type"],
            registry=registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
        )
        self._age_of: dict[str, Histogram] = {}  # the age's child per event type: `labels` once, not per message

    def wrap(self, queue: str, handler: Callable[[Envelope], Awaitable[None]]) -> Callable[[Envelope], Awaitable[None]]:
        async def handle(envelope: Envelope) -> None:
            with self.consuming(queue, envelope):
                await handler(envelope)

        return handle

    def wrap_applied(self, queue: str, handler: SessionHandler) -> SessionHandler:
        """The same for a handler applied inside the inbox's transaction (one span per message of a batch)."""

        async def handle(session: AsyncSession, envelope: Envelope) -> None:
            with self.consuming(queue, envelope):
                await handler(session, envelope)

        return handle

    @contextmanager
    def consuming(self, queue: str, envelope: Envelope) -> Iterator[None]:
        age = self._age_of.get(envelope.type)
        if age is None:
            age = self._age_of[envelope.type] = self.age.labels(envelope.type)
        age.observe(max(0.0, (datetime.now(UTC) - envelope.occurred_at).total_seconds()))
        token = correlation.bind(envelope.correlation_id)
        try:
            parent = propagate.extract(envelope.trace_context)
            if _unsampled(parent):
                with _made_current(parent):
                    yield
                return
            with self.tracer.start_as_current_span(
                f"consume {envelope.type}",
                context=parent,
                kind=trace.SpanKind.CONSUMER,
                attributes={
                    CORRELATION_ATTRIBUTE: envelope.correlation_id,
                    "messaging.system": "rabbitmq",
                    "messaging.destination.name": queue,
                    "messaging.message.id": envelope.id,
                    "messaging.message.type": envelope.type,
                },
            ):
                yield
        finally:
            correlation.reset(token)


@contextmanager
def _made_current(parent: otel_context.Context) -> Iterator[None]:
    """`parent` (a producer's or a caller's trace context) the current context while the block runs."""
    attached = otel_context.attach(parent)
    try:
        yield
    finally:
        otel_context.detach(attached)


_IDS = RandomIdGenerator()
_UNSAMPLED = trace.TraceFlags(trace.TraceFlags.DEFAULT)


def _new_unsampled_trace() -> otel_context.Context:
    """A new trace's context, its span not recorded: the ids the SDK's generator would give it."""
    span_context = trace.SpanContext(
        _IDS.generate_trace_id(), _IDS.generate_span_id(), is_remote=False, trace_flags=_UNSAMPLED
    )
    return trace.set_span_in_context(trace.NonRecordingSpan(span_context), otel_context.Context())


def _unsampled(parent: otel_context.Context) -> bool:
    """Whether `parent` names a span (a producer's, a caller's) whose trace is not sampled (no span at all: the
    sampler decides on a new trace, so False)."""
    producer = trace.get_current_span(parent).get_span_context()
    return producer.is_valid and not producer.trace_flags.sampled
