"""Idempotent consumers: a handled message id is recorded in the same transaction as the handler's effect,
so a redelivered message changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from platform_kit.bus.envelope import Envelope
from platform_kit.db import Database, UtcDateTime

INBOX_TABLE = "inbox"

SessionHandler = Callable[[AsyncSession, Envelope], Awaitable[None]]


def inbox_table(metadata: MetaData) -> Table:
    return Table(
        INBOX_TABLE,
        metadata,
        Column("consumer", String(100), nullable=False),
        Column("message_id", String(32), nullable=False),
        Column("message_type", String(120), nullable=False),
        Column("handled_at", UtcDateTime, nullable=False),
        PrimaryKeyConstraint("consumer", "message_id"),
    )


class Inbox:
    def __init__(self, table: Table, db: Database) -> None:
        self.table = table
        self.db = db
        dialect = sqlite if db.is_sqlite else postgresql
        # Built once; the rows go as parameters (SQLAlchemy sends them as one multi-row INSERT … RETURNING).
        self._claim = dialect.insert(table).on_conflict_do_nothing().returning(table.c.message_id)
        self.applied_total = 0
        self.duplicates_total = 0

    async def claim(self, session: AsyncSession, consumer: str, envelope: Envelope) -> bool:
        """Record the message as handled by `consumer`; False when it already was (a duplicate)."""
        return bool(await self.claim_all(session, consumer, [envelope]))

    async def claim_all(self, session: AsyncSession, consumer: str, envelopes: Sequence[Envelope]) -> set[str]:
        """Record the messages as handled by `consumer`, in one statement; the ids that were not yet."""
        now = datetime.now(UTC)
        rows = {
            envelope.id: {
                "consumer": consumer,
                "message_id": envelope.id,
                "message_type": envelope.type,
                "handled_at": now,
            }
            for envelope in envelopes
        }
        return set((await session.scalars(self._claim, list(rows.values()))).all())

    def exactly_once(self, consumer: str, handler: SessionHandler) -> Callable[[Envelope], Awaitable[None]]:
        """Wrap `handler(session, envelope)` so that its effect is applied at most once per message id.

        The claim and the effect commit together: if the handler raises, neither is kept and the broker
        redelivers; if it succeeds, a redelivery finds the claim and is acknowledged without effect.
        """

        async def handle(envelope: Envelope) -> None:
            async with self.db.transaction() as session:
                if not await self.claim(session, consumer, envelope):
                    self.duplicates_total += 1
                    return
                await handler(session, envelope)
            self.applied_total += 1

        return handle

    def exactly_once_batch(
        self, consumer: str, handler: SessionHandler
    ) -> Callable[[Sequence[Envelope]], Awaitable[None]]:
        """The same guarantee for several messages in one transaction: one claim statement and one commit for
        the lot, each new message's effect applied in order. If any effect raises, nothing of the batch is kept
        (the transport then hands the messages over one at a time)."""

        async def handle(envelopes: Sequence[Envelope]) -> None:
            applied = 0
            async with self.db.transaction() as session:
                fresh = await self.claim_all(session, consumer, envelopes)
                for envelope in envelopes:
                    if envelope.id in fresh:
                        fresh.discard(envelope.id)  # a message twice in one batch is applied once
                        await handler(session, envelope)
                        applied += 1
            self.applied_total += applied
            self.duplicates_total += len(envelopes) - applied

        return handle
