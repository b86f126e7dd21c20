"""Idempotency-key retention: answered keys older than the retention window are deleted, in bounded batches.

A key guarantees that retries of one command execute it once; the wallet keeps that guarantee for the retention
window (`idempotency_retention_hours`, at least a day) and then forgets the key: the same key with the same
request executes as a new command. That is the trade-off for not keeping every key forever, so clients must not
retry a command after the window. Each batch is one short transaction, so the purge never holds many locks long.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from platform_kit.clock import Clock
from platform_kit.db import Database
from prometheus_client import CollectorRegistry, Counter

from wallet.adapters import idempotency

log = logging.getLogger(__name__)

PURGE_BATCH = 10_000


class KeyRetention:
    def __init__(self, db: Database, clock: Clock, registry: CollectorRegistry, retention: timedelta) -> None:
        self.db = db
        self.clock = clock
        self.retention = retention
        self.purged = Counter(
            "wallet_idempotency_keys_purged",
            "Idempotency keys deleted after their retention window",
            registry=registry,
        )

    async def purge_expired(self, batch: int = PURGE_BATCH) -> int:
        """Delete every answered key older than the retention; returns how many. One transaction per batch."""
        cutoff = self.clock.now() - self.retention
        purged = 0
        while True:
            async with self.db.transaction() as session:
                deleted = await idempotency.purge_answered_before(session, cutoff, batch)
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
