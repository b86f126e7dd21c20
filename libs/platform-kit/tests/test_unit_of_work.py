"""`UnitOfWork` and `Reactions`: the work, its outbox rows and its internal events commit together; reactions run
after the commit, each in its own unit of work, exactly once, and a failing one neither undoes the work nor is
lost (the recovery pass tries it again) — on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from messaging_fixture import CreditGranted, create_schema, credited, credits, metadata
from platform_kit.db import Database
from platform_kit.outbox import Outbox
from platform_kit.unit_of_work import Reactions
from sqlalchemy import func, select


@dataclass(frozen=True)
class Credited:
    account: str
    amount: int


class Recorder:
    """Reacts to `Credited` by crediting the account's mirror (`<account>:mirror`), failing while `failing`."""

    def __init__(self) -> None:
        self.failing = False
        self.committed_before: list[tuple[int, int]] = []

    async def react(self, db: Database, uow: object, event: Credited) -> None:
        # What another connection sees when the reaction starts: the raising work must be committed by then.
        self.committed_before.append(await credited(db, event.account))
        session = uow.session  # type: ignore[attr-defined]
        await session.execute(credits.insert().values(account=f"{event.account}:mirror", amount=event.amount))
        if self.failing:
            raise RuntimeError("the reaction fails")


async def started(url: str, now: list[datetime]) -> tuple[Database, Reactions, Recorder]:
    db = Database(url)
    await create_schema(db)
    reactions = Reactions(
        db, Outbox(metadata.tables["outbox"], producer="test"), metadata.tables["pending_reactions"], now=lambda: now[0]
    )
    recorder = Recorder()
    reactions.on(Credited, lambda uow, event: recorder.react(db, uow, event))
    return db, reactions, recorder


async def credit(reactions: Reactions, account: str, amount: int, *, fail: bool = False) -> None:
    async with reactions.unit() as uow:
        await uow.session.execute(credits.insert().values(account=account, amount=amount))
        await uow.publish(CreditGranted(account=account, amount=amount))
        await uow.raise_event(Credited(account, amount))
        if fail:
            raise RuntimeError("the work fails")


async def counts(db: Database) -> tuple[int, int]:
    """(outbox rows, recorded events not yet reacted to)."""
    async with db.sessions() as session:
        outbox = await session.scalar(select(func.count()).select_from(metadata.tables["outbox"]))
        pending = await session.scalar(select(func.count()).select_from(metadata.tables["pending_reactions"]))
    return int(outbox or 0), int(pending or 0)


async def committed_then_reacted_once(url: str) -> None:
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    db, reactions, recorder = await started(url, now)
    try:
        await credit(reactions, "a", 5)
        assert await credited(db, "a") == (1, 5)
        assert recorder.committed_before == [(1, 5)], "the reaction ran after the work had committed"
        assert await credited(db, "a:mirror") == (1, 5)
        assert await counts(db) == (1, 0), "one outbox row; the event's record went with its reaction"
        now[0] += timedelta(hours=1)
        assert await reactions.recover() == 0 and await credited(db, "a:mirror") == (1, 5), "reacted to once"

        with pytest.raises(RuntimeError, match="the work fails"):
            await credit(reactions, "b", 7, fail=True)
        assert await credited(db, "b") == (0, 0) and await credited(db, "b:mirror") == (0, 0)
        assert await counts(db) == (1, 0), "a rollback drops the outbox row and the event: nothing reacts"
    finally:
        await db.dispose()


async def failed_reaction_kept_then_recovered(url: str) -> None:
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    db, reactions, recorder = await started(url, now)
    try:
        recorder.failing = True
        await credit(reactions, "a", 5)  # the reaction's failure does not reach the work's caller
        assert await credited(db, "a") == (1, 5), "a failing reaction does not undo the work"
        assert await credited(db, "a:mirror") == (0, 0) and await counts(db) == (1, 1)

        recorder.failing = False
        assert await reactions.recover() == 0, "too recent: the process that raised it may still be reacting"
        now[0] += reactions.retry_after
        assert await reactions.recover() == 1
        assert await credited(db, "a:mirror") == (1, 5) and await counts(db) == (1, 0)
    finally:
        await db.dispose()


async def raised_in_a_foreign_transaction(url: str) -> None:
    """A bus consumer's transaction (the inbox's): reacted to in a task once it commits."""
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    db, reactions, _ = await started(url, now)
    try:
        async with db.transaction() as session:
            await reactions.raise_event(session, Credited("c", 3))
        await reacted_to(db, "c", (1, 3))
        assert await credited(db, "c:mirror") == (1, 3) and await counts(db) == (0, 0)
    finally:
        await db.dispose()


async def reacted_to(db: Database, account: str, expected: tuple[int, int]) -> None:
    for _ in range(200):
        if await credited(db, f"{account}:mirror") == expected:
            return
        await asyncio.sleep(0.01)
    assert await credited(db, f"{account}:mirror") == expected


async def a_unit_in_a_foreign_transaction(url: str) -> None:
    """A bus consumer's unit of work: the work, its outbox row and its event commit or roll back with the
    transaction its owner (the inbox) holds; the reaction runs after that commit."""
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    db, reactions, recorder = await started(url, now)
    try:
        async with db.transaction() as session:
            async with reactions.unit_in(session) as uow:
                await uow.session.execute(credits.insert().values(account="d", amount=4))
                await uow.publish(CreditGranted(account="d", amount=4))
                await uow.raise_event(Credited("d", 4))
            assert await credited(db, "d") == (0, 0), "leaving the unit commits nothing: its owner commits"
        await reacted_to(db, "d", (1, 4))
        assert recorder.committed_before == [(1, 4)] and await counts(db) == (1, 0)

        with pytest.raises(RuntimeError, match="the owner fails"):
            async with db.transaction() as session:
                async with reactions.unit_in(session) as uow:
                    await uow.session.execute(credits.insert().values(account="e", amount=2))
                    await uow.raise_event(Credited("e", 2))
                raise RuntimeError("the owner fails")
        await asyncio.sleep(0.05)
        assert await credited(db, "e") == (0, 0) and await credited(db, "e:mirror") == (0, 0)
        assert await counts(db) == (1, 0), "the owner's rollback takes the unit's work and event with it"
    finally:
        await db.dispose()


async def test_the_work_commits_then_its_reactions_run_once(sqlite_url: str) -> None:
    await committed_then_reacted_once(sqlite_url)


async def test_a_failing_reaction_keeps_the_work_and_is_recovered(sqlite_url: str) -> None:
    await failed_reaction_kept_then_recovered(sqlite_url)


async def test_an_event_raised_in_a_consumers_transaction_is_reacted_to_after_its_commit(sqlite_url: str) -> None:
    await raised_in_a_foreign_transaction(sqlite_url)


async def test_a_unit_of_work_in_a_consumers_transaction_commits_with_it(sqlite_url: str) -> None:
    await a_unit_in_a_foreign_transaction(sqlite_url)


@pytest.mark.postgres
async def test_a_unit_of_work_in_a_consumers_transaction_on_postgresql(postgres_url: str) -> None:
    await a_unit_in_a_foreign_transaction(postgres_url)


@pytest.mark.postgres
async def test_the_work_commits_then_its_reactions_run_once_on_postgresql(postgres_url: str) -> None:
    await committed_then_reacted_once(postgres_url)


@pytest.mark.postgres
async def test_a_failing_reaction_keeps_the_work_and_is_recovered_on_postgresql(postgres_url: str) -> None:
    await failed_reaction_kept_then_recovered(postgres_url)


@pytest.mark.postgres
async def test_an_event_raised_in_a_consumers_transaction_on_postgresql(postgres_url: str) -> None:
    await raised_in_a_foreign_transaction(postgres_url)


async def test_an_event_nothing_reacts_to_is_refused_and_one_reaction_per_type(sqlite_url: str) -> None:
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    db, reactions, _ = await started(sqlite_url, now)
    try:
        with pytest.raises(ValueError, match="already has a reaction"):
            reactions.on(Credited, lambda uow, event: asyncio.sleep(0))
        with pytest.raises(LookupError, match="nothing reacts to"):
            async with reactions.unit() as uow:
                await uow.raise_event(CreditGranted(account="x", amount=1))
    finally:
        await db.dispose()
