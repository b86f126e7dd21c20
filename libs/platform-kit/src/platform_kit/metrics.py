"""Prometheus metrics: request count and latency by route template, plus whatever a service registers.

Each app has its own registry, so six services can share one process in standalone mode."""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from platform_kit.tracing import name_server_span


class HttpMetrics:
    def __init__(self, registry: CollectorRegistry, service: str) -> None:
        self.requests = Counter(
            "http_requests_total",
            "HTTP requests",
            ["service", "method", "route", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "http_request_duration_seconds",
            "HTTP request latency",
            ["service", "method", "route"],
            registry=registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
        )
        self.service = service
        #: The labelled children, looked up once per label values: `labels()` validates and joins the values and
        #: takes a lock on every call, a share of every request's cost (py-spy, issue 14). No more entries than
        #: the metrics keep children anyway (unmatched paths share the route "unmatched").
        self._counters: dict[tuple[str, str, int], Counter] = {}
        self._histograms: dict[tuple[str, str], Histogram] = {}

    def record(self, method: str, route: str, status: int, seconds: float) -> None:
        """One request answered: counted by route template and status, its latency observed by route."""
        counter = self._counters.get((method, route, status))
        if counter is None:
            counter = self._counters[(method, route, status)] = self.requests.labels(
                self.service, method, route, str(status)
            )
        histogram = self._histograms.get((method, route))
        if histogram is None:
            histogram = self._histograms[(method, route)] = self.latency.labels(self.service, method, route)
        counter.inc()
        histogram.observe(seconds)


class MetricsMiddleware:
    """Pure ASGI middleware (no buffering of bodies); the route template is known once routing has run."""

    def __init__(self, app: ASGIApp, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def record_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                # Before the response goes out: the request's span ends with its last byte.
                if "route" in scope:
                    name_server_span(scope["method"], _template(scope))
            await send(message)

        try:
            await self.app(scope, receive, record_status)
        finally:
            self.metrics.record(scope["method"], _template(scope), status, time.perf_counter() - started)


def _template(scope: Scope) -> str:
    """The matched route's template (`/players/{player_id}`), known once routing has run."""
    return getattr(scope.get("route"), "path", None) or "unmatched"
