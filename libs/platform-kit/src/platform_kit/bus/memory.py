"""An in-process transport with the RabbitMQ transport's semantics: topic routing, one ordered queue per
subscriber, retries and a dead-letter list. For standalone mode and unit tests only."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from platform_kit.bus.envelope import Envelope, OutgoingMessage
from platform_kit.bus.transport import (
    BATCH_LIMIT,
    DEFAULT_MAX_DELIVERIES,
    BatchHandler,
    Handler,
    applied_as_batch,
    topic_matches,
)

log = logging.getLogger(__name__)


@dataclass
class _Queue:
    name: str
    patterns: list[str]
    handler: Handler
    max_deliveries: int
    batch: BatchHandler | None = None
    pending: asyncio.Queue[Envelope] = field(default_factory=asyncio.Queue)
    dead: list[Envelope] = field(default_factory=list)
    worker: asyncio.Task[None] | None = None


class InMemoryBus:
    def __init__(self) -> None:
        self._queues: dict[str, _Queue] = {}
        self.published: list[tuple[str, Envelope]] = []

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        for queue in self._queues.values():
            if queue.worker:
                queue.worker.cancel()
        await asyncio.gather(*(q.worker for q in self._queues.values() if q.worker), return_exceptions=True)
        self._queues.clear()

    async def ping(self) -> bool:
        return True

    async def publish(self, message: OutgoingMessage) -> None:
        # Parsed once here for every subscriber, as RabbitMQ's consumers parse what they receive: handlers take
        # envelopes.
        key = message.routing_key
        envelope = Envelope.from_bytes(message.body)
        self.published.append((key, envelope))
        for queue in self._queues.values():
            if any(topic_matches(p, key) for p in queue.patterns):
                queue.pending.put_nowait(envelope.delivered_as(key))

    async def subscribe(
        self,
        queue: str,
        patterns: Sequence[str],
        handler: Handler,
        *,
        max_deliveries: int = DEFAULT_MAX_DELIVERIES,
        concurrency: int = 1,
        per_instance: bool = False,
        batch: BatchHandler | None = None,
    ) -> None:
        # In process, messages are always handled in order, whatever `concurrency` allows.
        if queue in self._queues:
            raise ValueError(f"queue {queue!r} already has a consumer")
        q = _Queue(queue, list(patterns), handler, max_deliveries, batch if concurrency == 1 else None)
        q.worker = asyncio.create_task(self._work(q), name=f"bus-queue-{queue}")
        self._queues[queue] = q

    def dead_letters(self, queue: str) -> list[Envelope]:
        return list(self._queues[queue].dead)

    async def drain(self) -> None:
        """Wait until every queue is empty and idle (tests and the simulator use this)."""
        await asyncio.gather(*(q.pending.join() for q in self._queues.values()))

    async def _work(self, queue: _Queue) -> None:
        while True:
            waiting = [await queue.pending.get()]
            while len(waiting) < BATCH_LIMIT and not queue.pending.empty():
                waiting.append(queue.pending.get_nowait())
            try:
                if not await applied_as_batch(queue.batch, waiting, queue.name):
                    for envelope in waiting:
                        await self._deliver(queue, envelope)
            finally:
                for _ in waiting:
                    queue.pending.task_done()

    async def _deliver(self, queue: _Queue, envelope: Envelope) -> None:
        for attempt in range(1, queue.max_deliveries + 1):
            try:
                await queue.handler(envelope)
                return
            except Exception:
                log.exception(
                    "handler failed", extra={"queue": queue.name, "attempt": attempt, "message_id": envelope.id}
                )
                await asyncio.sleep(0)
        queue.dead.append(envelope)
