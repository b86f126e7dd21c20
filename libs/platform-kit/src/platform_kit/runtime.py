"""Everything a service runs besides its HTTP routes: database, bus, outbox relay, consumers, background tasks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge
from sqlalchemy import MetaData
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncSession

from platform_kit.bus import Envelope, Handler, Transport, topic_matches, transport_for
from platform_kit.bus.transport import DEFAULT_MAX_DELIVERIES
from platform_kit.db import Database
from platform_kit.development_secrets import refuse_development_secrets
from platform_kit.events.base import routing_key_of
from platform_kit.inbox import INBOX_TABLE, Inbox, SessionHandler, inbox_table
from platform_kit.migrations import upgrade_to_head
from platform_kit.outbox import OUTBOX_TABLE, Outbox, OutboxRelay, outbox_table
from platform_kit.sender import ConfirmedSender
from platform_kit.settings import ServiceSettings
from platform_kit.tracing import ConsumerTelemetry, recorded_share, tracer_provider
from platform_kit.unit_of_work import UnitsOfWork

log = logging.getLogger(__name__)

BackgroundTask = Callable[[], Awaitable[None]]


def add_messaging_tables(metadata: MetaData) -> None:
    """Every service's metadata carries the kit's outbox and inbox tables."""
    outbox_table(metadata)
    inbox_table(metadata)


@dataclass
class _Subscription:
    queue: str
    routes: list[tuple[str, SessionHandler]] = field(default_factory=list)
    max_deliveries: int = DEFAULT_MAX_DELIVERIES
    concurrency: int = 1


class ServiceRuntime:
    def __init__(
        self,
        settings: ServiceSettings,
        *,
        metadata: MetaData,
        migrations_dir: Path,
        bus: Transport | None = None,
    ) -> None:
        self.settings = settings
        self.name = settings.service_name
        self.metadata = metadata
        self.migrations_dir = migrations_dir
        self.db = Database(
            settings.database_url,
            pool_size=settings.database_pool_size,
            pool_timeout=settings.database_pool_timeout_seconds,
        )
        self.bus: Transport = bus if bus is not None else transport_for(settings.bus_url)
        self._owns_bus = bus is None
        self.outbox = Outbox(metadata.tables[OUTBOX_TABLE], producer=self.name)
        self.inbox = Inbox(metadata.tables[INBOX_TABLE], self.db)
        self.relay = OutboxRelay(self.db, self.outbox, self.bus)
        #: Where use cases take their transaction or read session (a service with reactions: `Reactions.unit`).
        self.units = UnitsOfWork(self.db, self.outbox)
        #: For messages that change nothing in this service's database (platform_kit.sender).
        self.sender = ConfirmedSender(self.bus, self.name)
        self.registry = CollectorRegistry()
        self._subscriptions: dict[str, _Subscription] = {}
        self._background: list[BackgroundTask] = []
        self._broadcasts: list[tuple[str, Handler]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox_backlog = Gauge("outbox_backlog", "Outbox rows not yet published", registry=self.registry)
        self.tracer_provider = tracer_provider(
            self.name, settings.otel_exporter_otlp_endpoint, sample_ratio=settings.otel_traces_sample_ratio
        )
        #: Whether any new trace is recorded (else requests only carry the trace context: `instrument_app`).
        self.records_traces = (
            recorded_share(settings.otel_exporter_otlp_endpoint, settings.otel_traces_sample_ratio) > 0
        )
        self._telemetry = ConsumerTelemetry(self.tracer_provider, self.registry)
        self._events_applied = Counter(
            "inbox_messages_applied_total", "Messages applied", ["type"], registry=self.registry
        )

    # -- wiring, before start -------------------------------------------------------------------------------
    def on(
        self,
        pattern: str,
        handler: SessionHandler,
        *,
        queue: str | None = None,
        max_deliveries: int = DEFAULT_MAX_DELIVERIES,
        concurrency: int = 1,
    ) -> None:
        """Apply `handler(session, envelope)` exactly once to each message matching `pattern`.

        All patterns of a service share one durable queue (named after the service) unless `queue` is given,
        e.g. a table-engine shard's command queue. Messages of a queue are applied in order, one at a time,
        unless the queue's first registration allows more `concurrency`. Messages already waiting are applied
        together in one transaction (one commit for up to `BATCH_LIMIT` of them): a handler must not assume it has
        its transaction to itself, and what it keeps in memory must follow the commit (`after_commit`).
        """
        name = queue or self.name
        subscription = self._subscriptions.setdefault(
            name, _Subscription(name, max_deliveries=max_deliveries, concurrency=concurrency)
        )
        subscription.routes.append((pattern, handler))

    def on_each_instance(self, pattern: str, handler: Handler) -> None:
        """Give every replica of this service its own copy of each message matching `pattern` (fan-out), with
        no inbox and no database transaction: for effects that live in the process, like WebSocket pushes."""
        self._broadcasts.append((pattern, handler))

    def in_background(self, task: BackgroundTask) -> None:
        """Run `task()` for the life of the service (a clock, a periodic check); restarted if it crashes."""
        self._background.append(task)

    # -- life cycle -----------------------------------------------------------------------------------------
    async def start(self) -> None:
        refuse_development_secrets(self.settings)
        if self.settings.migrate_on_start:
            await asyncio.to_thread(upgrade_to_head, self.settings.database_url, self.migrations_dir)
        if self._owns_bus:
            await self.bus.start()
        for subscription in self._subscriptions.values():
            patterns = sorted({pattern for pattern, _ in subscription.routes})
            apply = self._telemetry.wrap_applied(subscription.queue, self._dispatcher(subscription))
            await self.bus.subscribe(
                subscription.queue,
                patterns,
                self.inbox.exactly_once(subscription.queue, apply),
                max_deliveries=subscription.max_deliveries,
                concurrency=subscription.concurrency,
                batch=self.inbox.exactly_once_batch(subscription.queue, apply),
            )
        if self._broadcasts:
            await self.bus.subscribe(
                f"{self.name}.instance",
                sorted({pattern for pattern, _ in self._broadcasts}),
                self._telemetry.wrap(f"{self.name}.instance", self._broadcast_dispatcher),
                per_instance=True,
            )
        self.relay.start()
        self._tasks = [asyncio.create_task(self._keep_running(task)) for task in self._background]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.relay.stop()
        if self._owns_bus:
            await self.bus.close()
        await self.db.dispose()

    async def readiness(self) -> dict[str, bool]:
        return {"database": await self.db.ping(), "bus": await self.bus.ping()}

    async def refresh_gauges(self) -> None:
        try:
            self._outbox_backlog.set(await self.relay.backlog())
        except Exception:
            log.warning("could not read the outbox backlog", exc_info=True)

    async def _broadcast_dispatcher(self, envelope: Envelope) -> None:
        for handler in _handlers_for(self._broadcasts, envelope):
            await handler(envelope)

    def _dispatcher(self, subscription: _Subscription) -> SessionHandler:
        async def dispatch(session: AsyncSession, envelope: Envelope) -> None:
            for handler in _handlers_for(subscription.routes, envelope, subscription.queue):
                await handler(session, envelope)
            self._events_applied.labels(envelope.type).inc()

        return dispatch

    async def _keep_running(self, task: BackgroundTask) -> None:
        while True:
            try:
                await task()
                return
            except asyncio.CancelledError:
                raise
            except PoolTimeout:
                # Overload, not a fault: every connection was busy for the pool's whole timeout (a request rush).
                log.warning("background task found the database busy; restarting in 1 s")
                await asyncio.sleep(1)
            except Exception:
                log.exception("background task crashed; restarting in 1 s")
                await asyncio.sleep(1)


H = TypeVar("H")


def _handlers_for(routes: list[tuple[str, H]], envelope: Envelope, queue: str | None = None) -> list[H]:
    """Each handler whose pattern matches the message, once, even when several of its patterns match."""
    chosen: list[H] = []
    for pattern, handler in routes:
        if _matches(pattern, envelope, queue) and handler not in chosen:
            chosen.append(handler)
    return chosen


def _matches(pattern: str, envelope: Envelope, queue: str | None = None) -> bool:
    """Whether a message bound by `pattern` is this envelope, judged on the routing key it was delivered with.

    Without one (a message handed over directly), the key is inferred: the one its contract declares
    (`private.<type>` for a private event); `<queue>.<type>` for a command addressed to a queue."""
    if envelope.routing_key is not None:
        return topic_matches(pattern, envelope.routing_key)
    keys = [routing_key_of(envelope.type)]
    if queue is not None:
        keys.append(f"{queue}.{envelope.type}")
    return any(topic_matches(pattern, key) for key in keys)
