"""Idempotent consumers: a handled message id is recorded in the same transaction as the handler's effect,
so a redelivered message changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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
        self.applied_total = 0
        self.duplicates_total = 0

    async def claim(self, session: AsyncSession, consumer: str, envelope: Envelope) -> bool:
        """Record the message as handled by `consumer`; False when it already was (a duplicate)."""
        dialect = postgresql if not self.db.is_sqlite else sqlite
        statement = (
            dialect.insert(self.table)
            .values(
                consumer=consumer,
                message_id=envelope.id,
                message_type=envelope.type,
                handled_at=datetime.now(UTC),
            )
            .on_conflict_do_nothing()
        )
        result = await session.execute(statement)
        return bool(result.rowcount)  # type: ignore[attr-defined]

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
