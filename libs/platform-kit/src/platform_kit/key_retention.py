"""Idempotency-key retention: answered keys older than the retention window are deleted, in bounded batches.

A key guarantees that retries of one request execute it once; a service keeps that guarantee for the retention
window (`ServiceSettings.idempotency_retention_hours`, one setting for every service, at least a day) and then
forgets the key: the same key with the same request executes as a new one. That is the trade-off for not keeping
every key forever, so clients must not retry a request after the window.

A service's key table has at least `scope`, `key` (its primary key), `created_at` and `status_code` (None while
the request that claimed the key has not answered). `KeyRetention.start(runtime, table, ...)` purges it every
`idempotency_purge_interval_seconds`, counted in `<metric_prefix>_idempotency_keys_purged_total`.

Invariant: only answered keys older than the window are deleted, the oldest first; a claim still unanswered is
never deleted, however old (its request may still answer it).

Crash behaviour: each batch is one short transaction (the purge never holds many locks long): a crash loses the
batch in flight, rolled back, and the next pass deletes it. On PostgreSQL rows another purger holds (another
replica) are skipped rather than waited for.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from prometheus_client import CollectorRegistry, Counter
from sqlalchemy import Table, bindparam, delete, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from platform_kit.clock import Clock
from platform_kit.db import Database
from platform_kit.runtime import ServiceRuntime

__all__ = ["PURGE_BATCH", "KeyRetention"]

log = logging.getLogger(__name__)

PURGE_BATCH = 10_000


class KeyRetention:
    """Deletes the answered keys of one table past the retention window."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        registry: CollectorRegistry,
        table: Table,
        retention: timedelta,
        *,
        metric_prefix: str,
    ) -> None:
        self.db = db
        self.clock = clock
        self.retention = retention
        self.purged = Counter(
            f"{metric_prefix}_idempotency_keys_purged",
            "Idempotency keys deleted after their retention window",
            registry=registry,
        )
        # Built once (bound parameters): the oldest answered keys first, along an index on created_at.
        purgeable = (
            select(table.c.scope, table.c.key)
            .where(table.c.created_at < bindparam("cutoff"), table.c.status_code.is_not(None))
            .order_by(table.c.created_at)
            .limit(bindparam("batch"))
            .with_for_update(skip_locked=True)  # SQLite has no row locks and renders nothing for it
        )
        self._purge = delete(table).where(tuple_(table.c.scope, table.c.key).in_(purgeable))

    @classmethod
    def start(cls, runtime: ServiceRuntime, table: Table, clock: Clock, *, metric_prefix: str) -> KeyRetention:
        """The retention of `table` under the runtime's settings, purged in the background while it runs."""
        settings = runtime.settings
        retention = cls(
            runtime.db,
            clock,
            runtime.registry,
            table,
            timedelta(hours=settings.idempotency_retention_hours),
            metric_prefix=metric_prefix,
        )
        runtime.in_background(lambda: retention.purge_forever(settings.idempotency_purge_interval_seconds))
        return retention

    async def purge_batch(self, session: AsyncSession, cutoff: datetime, batch: int) -> int:
        """Delete at most `batch` answered keys created before `cutoff`, in one statement; how many."""
        result = await session.execute(self._purge, {"cutoff": cutoff, "batch": batch})
        return int(result.rowcount)  # type: ignore[attr-defined]

    async def purge_expired(self, batch: int = PURGE_BATCH) -> int:
        """Delete every answered key older than the retention; returns how many. One transaction per batch."""
        cutoff = self.clock.now() - self.retention
        purged = 0
        while True:
            async with self.db.transaction() as session:
                deleted = await self.purge_batch(session, cutoff, batch)
            self.purged.inc(deleted)
            purged += deleted
            if deleted < batch:
                return purged

    async def purge_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            count = await self.purge_expired()
            if count:
                log.info("expired idempotency keys purged", extra={"keys": count})
