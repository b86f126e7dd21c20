"""Transactional outbox: an event is a row written in the same transaction as the state change it reports.

The relay publishes unsent rows in order with publisher confirms and only then marks them sent. A crash between
publish and mark-sent publishes the row again on restart; consumers' inboxes absorb that duplicate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, bindparam, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from platform_kit.bus.envelope import Envelope, OutgoingMessage
from platform_kit.bus.transport import Transport
from platform_kit.db import BigIntPK, Database, UtcDateTime, after_commit
from platform_kit.events.base import Event
from platform_kit.sender import outgoing_envelope

log = logging.getLogger(__name__)

OUTBOX_TABLE = "outbox"
#: `session.info` key: the session will wake the relay at its commit (one listener however many events it writes).
_WAKE_PENDING = "outbox_wake_pending"


def outbox_table(metadata: MetaData) -> Table:
    return Table(
        OUTBOX_TABLE,
        metadata,
        Column("seq", BigIntPK, primary_key=True, autoincrement=True),
        Column("message_id", String(32), nullable=False, unique=True),
        Column("event_type", String(120), nullable=False),
        Column("routing_key", String(200), nullable=False),
        Column("envelope", Text, nullable=False),
        Column("created_at", UtcDateTime, nullable=False),
        Column("published_at", UtcDateTime, nullable=True, index=True),
        Column("attempts", Integer, nullable=False, default=0),
    )


class Outbox:
    """Writes events into the outbox table of the caller's transaction."""

    def __init__(self, table: Table, producer: str) -> None:
        self.table = table
        self.producer = producer
        self.written = asyncio.Event()
        self._insert = table.insert()

    async def add(
        self,
        session: AsyncSession,
        event: Event,
        *,
        routing_key: str | None = None,
        occurred_at: datetime | None = None,
        message_id: str | None = None,
    ) -> Envelope:
        envelope = outgoing_envelope(event, self.producer, occurred_at=occurred_at, message_id=message_id)
        # One statement built once, rows as parameters: building an INSERT per event costs more than sending it.
        await session.execute(self._insert, self._row(envelope, routing_key or event.routing_key()))
        self.wake_after_commit(session)
        return envelope

    async def add_many(
        self,
        session: AsyncSession,
        events: Iterable[Event],
        *,
        occurred_at: datetime | None = None,
        chunk: int = 1000,
    ) -> list[Envelope]:
        """Several events in the caller's transaction, published in the order given, each under its contract's
        routing key and with its own message id. One executemany per `chunk` events instead of a statement each:
        a draw's 20,000 coupon outcomes are 20 round trips, not 20,000."""
        envelopes: list[Envelope] = []
        rows: list[dict[str, Any]] = []
        for event in events:
            envelope = outgoing_envelope(event, self.producer, occurred_at=occurred_at)
            envelopes.append(envelope)
            rows.append(self._row(envelope, event.routing_key()))
        for start in range(0, len(rows), chunk):
            await session.execute(self._insert, rows[start : start + chunk])
        if rows:
            self.wake_after_commit(session)
        return envelopes

    def wake_after_commit(self, session: AsyncSession) -> None:
        """Wake the relay once `session`'s transaction has committed (never if it rolls back). Not before: a relay
        woken while the rows are still uncommitted finds nothing, then sleeps its idle interval with them waiting
        (half a second added to a table action's answer at human pace, when no other write wakes it: issue 14)."""
        if not session.info.get(_WAKE_PENDING):
            session.info[_WAKE_PENDING] = True
            after_commit(session, lambda: self._woken(session))

    def _woken(self, session: AsyncSession) -> None:
        session.info.pop(_WAKE_PENDING, None)
        self.written.set()

    def row(self, event: Event, *, occurred_at: datetime | None = None) -> dict[str, Any]:
        """`event`'s row, for a caller that inserts it in a statement of its own (the wallet sends a command's
        events in the command's last statement); it calls `wake_after_commit` once the row is written."""
        return self._row(outgoing_envelope(event, self.producer, occurred_at=occurred_at), event.routing_key())

    @staticmethod
    def _row(envelope: Envelope, routing_key: str) -> dict[str, Any]:
        return {
            "message_id": envelope.id,
            "event_type": envelope.type,
            "routing_key": routing_key,
            "envelope": envelope.model_dump_json(),
            "created_at": datetime.now(UTC),
            "attempts": 0,
        }


class OutboxRelay:
    """Publishes committed outbox rows, oldest first, then marks them sent."""

    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        transport: Transport,
        *,
        batch_size: int = 200,
        idle_interval: float = 0.5,
        batch_timeout: float = 30.0,
    ) -> None:
        self.db = db
        self.outbox = outbox
        self.transport = transport
        self.batch_size = batch_size
        self.idle_interval = idle_interval
        self.batch_timeout = batch_timeout
        self.published_total = 0
        self._lock_key = zlib.crc32(f"outbox:{outbox.producer}".encode())
        self._task: asyncio.Task[None] | None = None
        # The cycle's statements, built once: building them cost the relay about a tenth of its time (py-spy,
        # bench_bus), as much as the UPDATE that marks a batch sent.
        table = outbox.table
        self._try_turn = text("SELECT pg_try_advisory_xact_lock(:key)").bindparams(key=self._lock_key)
        self._wait_turn = text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=self._lock_key)
        self._unsent = (
            select(table.c.seq, table.c.message_id, table.c.event_type, table.c.routing_key, table.c.envelope)
            .where(table.c.published_at.is_(None))
            .order_by(table.c.seq)
            .limit(batch_size)
        )
        seqs = table.c.seq.in_(bindparam("seqs", expanding=True))
        self._mark_sent = update(table).where(seqs).values(published_at=bindparam("at"))
        self._count_failure = update(table).where(seqs).values(attempts=table.c.attempts + 1)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"outbox-relay-{self.outbox.producer}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def backlog(self) -> int:
        from sqlalchemy import func

        async with self.db.sessions() as session:
            count = await session.scalar(
                select(func.count()).select_from(self.outbox.table).where(self.outbox.table.c.published_at.is_(None))
            )
        return int(count or 0)

    async def flush(self, timeout: float = 10.0) -> None:
        """Publish until nothing written so far is left unpublished. Another relay (this process's own loop, or
        a replica's) may hold the turn and be publishing: then wait for it rather than return early."""
        async with asyncio.timeout(timeout):
            while await self.backlog():
                if not await self.publish_pending():
                    await asyncio.sleep(0.01)

    async def publish_pending(self, *, wait_for_turn: bool = False) -> int:
        """Publish one batch; returns how many rows were published. Also the unit the tests drive.

        Replicas of a service share its outbox (the table engine's shards: one database). One relay at a time
        publishes, so events leave in the order they were committed (a table's actions must not overtake each
        other). Another replica holding the turn: without `wait_for_turn` this returns 0 at once; with it, it
        waits in PostgreSQL until that replica's batch is committed, then publishes what is left. The relay's
        loop waits: giving up left a replica's events unpublished until its next commit or the idle interval
        (half a second) whenever the other replica was publishing. `bench/bench_outbox_replicas.py`, two
        replicas at 35 events/s each on a busy machine, commit to confirmed publish: p99 51-56 ms and max 75-511
        ms giving up, 20-21 and 27-29 waiting, as one relay alone (issue 14)."""
        async with self.db.transaction() as session:
            # The turn is its own statement, before the read: a read's snapshot is taken when its statement
            # starts, so one that took the turn itself could still see the rows the previous holder just sent.
            if not self.db.is_sqlite:
                if wait_for_turn:
                    await session.execute(self._wait_turn)
                elif not await session.scalar(self._try_turn):
                    return 0
            rows = (await session.execute(self._unsent)).all()
            # Publishes of one batch are pipelined on the confirming channel: sent in order, confirmed together.
            outcomes = await self._publish_all(
                [self._message(row.message_id, row.event_type, row.routing_key, row.envelope) for row in rows]
            )
            sent = [row.seq for row, outcome in zip(rows, outcomes, strict=True) if outcome is None]
            failed = [row.seq for row, outcome in zip(rows, outcomes, strict=True) if outcome is not None]
            if sent:
                await session.execute(self._mark_sent, {"seqs": sent, "at": datetime.now(UTC)})
            if failed:
                await session.execute(self._count_failure, {"seqs": failed})
                log.warning("outbox publish failed; will retry", extra={"failed": len(failed)})
        published = len(sent)
        self.published_total += published
        return published

    def _message(self, message_id: str, event_type: str, routing_key: str, envelope: str) -> OutgoingMessage:
        """A row as it is published: the envelope's stored text as it is, never parsed and serialised again
        (a pydantic round trip per event the consumer's own parse makes redundant); every row of this outbox was
        written by its producer."""
        return OutgoingMessage(
            body=envelope.encode(),
            routing_key=routing_key,
            message_id=message_id,
            type=event_type,
            producer=self.outbox.producer,
        )

    async def _publish_all(self, messages: Sequence[OutgoingMessage]) -> list[BaseException | None]:
        """Each message's outcome: None once the broker confirmed it, else why not.
        Bounded by `batch_timeout`: a publish can wait without end (aio-pika waits with no time limit for a
        robust channel being restored), and this relay holds the turn that every replica's relay waits for;
        past the bound the whole batch counts as failed and is published again in the next cycle (the
        confirmed ones too: inboxes absorb the repeats)."""
        try:
            async with asyncio.timeout(self.batch_timeout):
                return await asyncio.gather(
                    *(self.transport.publish(message) for message in messages), return_exceptions=True
                )
        except TimeoutError as timed_out:
            log.warning("outbox publish timed out; will retry", extra={"rows": len(messages)})
            return [timed_out] * len(messages)

    async def _run(self) -> None:
        while True:
            # Cleared before reading, so that an event written while we publish wakes the next cycle at once.
            self.outbox.written.clear()
            try:
                published = await self.publish_pending(wait_for_turn=True)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox relay cycle failed")
                published = 0
            if published < self.batch_size:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that arrives
                # with the timeout, and stop() would then wait for a loop that never ends.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.idle_interval):
                        await self.outbox.written.wait()
