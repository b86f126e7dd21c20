"""The app factory every service uses: health, readiness, metrics, correlation ids, problem+json errors."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Response
from fastapi.responses import JSONResponse
from fastapi.telemetry import TelemetryConfig
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from platform_kit import correlation
from platform_kit.edge import BodyLimits, EdgeMiddleware
from platform_kit.errors import install_handlers
from platform_kit.flat_routes import include_flat
from platform_kit.metrics import HttpMetrics, MetricsMiddleware
from platform_kit.request_admission import RequestAdmission, RequestAdmissionMiddleware
from platform_kit.runtime import ServiceRuntime
from platform_kit.tracing import instrument_app, tag_current_span
from platform_kit.unit_of_work import UnitOfWork

access_log = logging.getLogger("platform.access")
# Probes and scrapes arrive every few seconds from every replica: logging them would drown the real requests.
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
#: FastAPI's own OpenTelemetry (0.165) switched off: the kit traces requests (platform_kit.tracing: sampled, named by
#: route) and counts them (platform_kit.metrics). Left on, FastAPI turns itself on as soon as anything in the process
#: sets a global provider (an `opentelemetry-instrument` wrapper, a library), and every request gets a second span
#: and a second set of metrics. Even with none set it asked on every request whether one was (8-10 µs a request:
#: bench/bench_request_overhead.py).
KIT_OWNS_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


class CorrelationMiddleware:
    """Binds the request's `X-Request-ID` (or a new one) for logs and events, and echoes it back."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, _REQUEST_ID)
        request_id = incoming.decode("latin-1")[:64] if incoming else correlation.new_id()
        token = correlation.bind(request_id)
        tag_current_span(request_id)
        try:
            if scope["type"] == "websocket":
                # A socket's messages pass straight through: nothing of them is answered or logged here, and a
                # wrapper would cost a call on every message fanned out to every socket (issue 14).
                await self.app(scope, receive, send)
            else:
                await self.app(scope, receive, _answering_with_id(scope, send, request_id))
        finally:
            correlation.reset(token)


def _answering_with_id(scope: Scope, send: Send, request_id: str) -> Send:
    """`send`, with the request id added to the answer's headers and the answer logged (probes excepted)."""
    started = time.perf_counter()

    async def send_with_id(message: Message) -> None:
        if message["type"] == "http.response.start":
            message.setdefault("headers", [])
            message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            if scope.get("path") not in QUIET_PATHS and access_log.isEnabledFor(logging.INFO):
                access_log.info(
                    "request",
                    extra={
                        "method": scope.get("method"),
                        "path": scope.get("path"),
                        "status": message["status"],
                        "ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
        await send(message)

    return send_with_id


_REQUEST_ID = correlation.HEADER.lower().encode()


def _header(scope: Scope, name: bytes) -> bytes | None:
    """The value of the header `name` (lower-case, as ASGI gives names; the last one if repeated), without
    building a dict of all of them on every request."""
    found = None
    for key, value in scope.get("headers") or ():
        if key == name:
            found = bytes(value)
    return found


def create_service_app(
    runtime: ServiceRuntime,
    *,
    title: str,
    description: str,
    routers: Sequence[APIRouter] = (),
    version: str = "0.1.0",
    body_limits: Mapping[str, int] | None = None,
    admission: RequestAdmission | None = None,
) -> FastAPI:
    """`body_limits`: path prefix -> largest body in bytes, for route families that need another limit than the
    service's `max_body_bytes` (platform_kit.edge). `admission`: the HTTP requests in flight at once
    (platform_kit.request_admission); unbounded without."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        try:
            yield
        finally:
            await runtime.stop()

    app = FastAPI(
        title=title, description=description, version=version, lifespan=lifespan, telemetry=KIT_OWNS_TELEMETRY
    )
    app.state.runtime = runtime
    install_handlers(app)
    # Innermost: its refusals are still counted, logged and tagged with the request id.
    app.add_middleware(EdgeMiddleware, limits=BodyLimits(runtime.settings.max_body_bytes, body_limits))
    if admission is not None:  # before the body is read, after the request is counted and given its id
        app.add_middleware(RequestAdmissionMiddleware, bound=admission, exempt=QUIET_PATHS)
    app.add_middleware(MetricsMiddleware, metrics=HttpMetrics(runtime.registry, runtime.name))
    app.add_middleware(CorrelationMiddleware)

    @app.get("/healthz", tags=["operations"], summary="Liveness: the process answers")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "service": runtime.name}

    @app.get("/readyz", tags=["operations"], summary="Readiness: database and broker reachable")
    async def readyz() -> JSONResponse:
        checks = await runtime.readiness()
        ready = all(checks.values())
        return JSONResponse(
            {"status": "ready" if ready else "unavailable", "service": runtime.name, "checks": checks},
            status_code=200 if ready else 503,
        )

    @app.get("/metrics", tags=["operations"], summary="Prometheus metrics", response_class=Response)
    async def metrics() -> Response:
        await runtime.refresh_gauges()
        return Response(generate_latest(runtime.registry), media_type=CONTENT_TYPE_LATEST)

    for router in routers:
        include_flat(app, router)
    instrument_app(app, runtime.tracer_provider, recording=runtime.records_traces)
    return app


def runtime_of(request: HTTPConnection) -> ServiceRuntime:
    runtime: ServiceRuntime = request.app.state.runtime
    return runtime


async def _request_unit(request: HTTPConnection) -> AsyncIterator[UnitOfWork]:
    async with runtime_of(request).units.unit() as uow:
        yield uow


async def _request_reading(request: HTTPConnection) -> AsyncIterator[AsyncSession]:
    async with runtime_of(request).units.reading() as session:
        yield session


#: The request's unit of work (polar's `get_db_session`): one transaction for the route, committed when the route
#: function returns and before its answer is sent (scope "function"), so a failed commit answers 500 rather than
#: a success that did not happen; rolled back when the route raises.
UnitOfWorkDep = Annotated[UnitOfWork, Depends(_request_unit, scope="function")]
#: The request's read-only session (`UnitsOfWork.reading`), closed when the route function returns.
ReadingDep = Annotated[AsyncSession, Depends(_request_reading, scope="function")]
