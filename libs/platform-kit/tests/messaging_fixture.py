"""A tiny service used by the bus tests: an outbox, an inbox and one effect table (credits applied)."""

from __future__ import annotations

from platform_kit.bus import Envelope
from platform_kit.db import Database
from platform_kit.events import Event
from platform_kit.runtime import add_messaging_tables
from platform_kit.unit_of_work import reactions_table
from sqlalchemy import Column, Integer, MetaData, String, Table, func, select
from sqlalchemy.ext.asyncio import AsyncSession

metadata = MetaData()
add_messaging_tables(metadata)
reactions_table(metadata)  # test_unit_of_work
credits = Table(
    "credits",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", String(50), nullable=False),
    Column("amount", Integer, nullable=False),
)


class CreditGranted(Event):
    TYPE = "test.credit.granted"
    account: str
    amount: int


async def create_schema(db: Database) -> None:
    async with db.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)


async def apply_credit(session: AsyncSession, envelope: Envelope) -> None:
    event = envelope.event()
    assert isinstance(event, CreditGranted)
    await session.execute(credits.insert().values(account=event.account, amount=event.amount))


async def credited(db: Database, account: str) -> tuple[int, int]:
    """(number of credit rows, total amount) for an account."""
    async with db.sessions() as session:
        row = (
            await session.execute(
                select(func.count(), func.coalesce(func.sum(credits.c.amount), 0)).where(credits.c.account == account)
            )
        ).one()
    return int(row[0]), int(row[1])
