"""One use case's database transaction — its session, the bus events it publishes and the internal events it
raises — and the reactions to those internal events, each run after the commit in a unit of work of its own.

    async with reactions.unit() as uow:
        ...                                     # reads and writes through uow.session
        await uow.publish(SomethingHappened())  # a bus event: an outbox row of this transaction
        await uow.raise_event(Filled(t))        # an internal event: reacted to once this commits

Invariant: a unit of work commits whole or not at all — its rows, its outbox rows (published by the relay only
once committed) and the record of each internal event it raised. Reactions run only after that commit, each
in a new unit of work, so a reaction never runs ahead of the work that justifies it, and a reaction that fails
never undoes that work (it is logged and retried, below). A reaction may raise events of its own: they are
reacted to after its commit in turn. (The model: cosmicpython's `unit_of_work.py` and `messagebus.py`.)

Crash behaviour: each internal event is a row of `pending_reactions`, written in the transaction that raised
it, and a reaction's unit of work begins by deleting its event's row (`_claim`). So the reaction and the removal
of its event commit together or not at all:

- the process dies between the commit and the reaction, or the reaction fails: the row stays, and `recover`
  (a service calls it periodically, e.g. from its clock) reacts to every row older than `retry_after`;
- a reaction attempted twice at once (the recovery pass beside the process that raised it, two replicas): the
  second delete finds no row (on PostgreSQL it waits on the first's row lock, then finds it gone) and skips —
  each event is reacted to exactly once;
- the raising transaction rolls back: its rows go with it and the events are never reacted to.

A recorded event is chosen over "reactions idempotent and re-driven by a clock pass" because it recovers every
reaction the same way, with no per-reaction query for "what should have happened by now" to keep in step with
the code that raises it. An event is a plain dataclass whose fields are JSON values (strings, numbers, lists of
them): it is written as JSON and read back by its registered type.

A service that raises no internal events has plain units of work, without `Reactions`, from `UnitsOfWork`
(`ServiceRuntime.units`), which also hands out read-only sessions: with them its use cases open no transaction
on the database themselves (issue 19; `tests/test_kit_plumbing.py` keeps it so).

Work done inside a transaction that is not a unit of work's — a bus consumer's, which the kit's inbox commits
(`ServiceRuntime.on`) — runs in `Reactions.unit_in(session)`, a unit of work over that transaction: entering it
begins nothing and leaving it commits nothing (the inbox commits the message's claim and its effect together,
or rolls both back), and the events it raises are reacted to in a task started when that transaction commits
(`Reactions.raise_event(session, event)` does the same without a unit).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, Self, TypeVar

from sqlalchemy import Column, MetaData, String, Table, Text, delete, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from platform_kit.bus.envelope import Envelope
from platform_kit.db import BigIntPK, Database, UtcDateTime, after_commit
from platform_kit.events.base import Event
from platform_kit.outbox import Outbox

__all__ = ["REACTIONS_TABLE", "Reactions", "UnitOfWork", "UnitsOfWork", "reactions_table"]

log = logging.getLogger(__name__)

REACTIONS_TABLE = "pending_reactions"
#: session.info keys: the internal events raised in the session's transaction, and whether a unit of work owns it.
_RAISED = "platform_raised_events"
_OWNED = "platform_unit_of_work"

E = TypeVar("E")
Reaction = Callable[["UnitOfWork", Any], Awaitable[None]]


def reactions_table(metadata: MetaData) -> Table:
    """The internal events raised and not yet reacted to (a service that raises any carries this table)."""
    return Table(
        REACTIONS_TABLE,
        metadata,
        Column("seq", BigIntPK, primary_key=True, autoincrement=True),
        Column("event_type", String(120), nullable=False),
        Column("payload", Text, nullable=False),
        Column("created_at", UtcDateTime, nullable=False, index=True),
    )


class Reactions:
    """Internal event type -> its reaction; makes the units of work and reacts to what they raise."""

    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        table: Table,
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        retry_after: timedelta = timedelta(seconds=30),
    ) -> None:
        self.db = db
        self.outbox = outbox
        self.table = table
        self.now = now
        self.retry_after = retry_after
        self._reactions: dict[str, tuple[type[Any], Reaction]] = {}
        self._insert = table.insert()
        #: Reactions started by a commit that is not a unit of work's: kept so the loop does not drop them.
        self._tasks: set[asyncio.Task[None]] = set()

    def on(self, event_type: type[E], reaction: Callable[[UnitOfWork, E], Awaitable[None]]) -> None:
        """React to every `event_type` raised: `reaction(uow, event)`, in a unit of work of its own. One reaction
        per type: the claim of an event's row is the reaction's."""
        name = event_type.__name__
        if name in self._reactions:
            raise ValueError(f"{name} already has a reaction")
        self._reactions[name] = (event_type, reaction)

    def unit(self) -> UnitOfWork:
        return UnitOfWork(self.db, self.outbox, self)

    def unit_in(self, session: AsyncSession) -> UnitOfWork:
        """The unit of work of a transaction its owner opened and commits (a bus consumer's: the inbox's)."""
        return UnitOfWork(self.db, self.outbox, self, session)

    async def raise_event(self, session: AsyncSession, event: object) -> None:
        """Record `event` in `session`'s transaction, to be reacted to once it commits."""
        name = type(event).__name__
        if name not in self._reactions:
            raise LookupError(f"nothing reacts to {name}")
        payload = json.dumps(dataclasses.asdict(event))  # type: ignore[call-overload]
        result = await session.execute(
            self._insert.returning(self.table.c.seq),
            {"event_type": name, "payload": payload, "created_at": self.now()},
        )
        raised: list[tuple[int, object]] | None = session.info.get(_RAISED)
        if raised is None:
            raised = session.info[_RAISED] = []
            if not session.info.get(_OWNED):
                after_commit(session, lambda: self._in_background(raised))
        raised.append((int(result.scalar_one()), event))

    async def dispatch(self, raised: list[tuple[int, object]]) -> None:
        """React to each event, in the order raised."""
        for seq, event in raised:
            await self._react(seq, event)

    async def recover(self) -> int:
        """React to the events left behind (a crash, a reaction that failed) at least `retry_after` ago; how many."""
        before = self.now() - self.retry_after
        query = select(self.table).where(self.table.c.created_at <= before).order_by(self.table.c.seq)
        async with self.db.sessions() as session:
            rows = (await session.execute(query)).all()
        for row in rows:
            if row.event_type not in self._reactions:
                log.error("no reaction to a recorded event", extra={"event_type": row.event_type, "seq": row.seq})
                continue
            event_type, _ = self._reactions[row.event_type]
            await self._react(row.seq, event_type(**json.loads(row.payload)))
        return len(rows)

    async def _react(self, seq: int, event: object) -> None:
        _, reaction = self._reactions[type(event).__name__]
        try:
            async with self.unit() as uow:
                if await uow.claim(seq):
                    await reaction(uow, event)
        except Exception:
            log.exception("reaction failed; the recovery pass tries it again", extra={"event": repr(event)})

    def _in_background(self, raised: list[tuple[int, object]]) -> None:
        task = asyncio.get_running_loop().create_task(self.dispatch(raised))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class UnitOfWork:
    """One transaction: `session`, `publish` (the outbox) and `raise_event` (reactions after the commit; a unit of
    work made without `reactions` — a service that raises no internal events — refuses to raise one)."""

    def __init__(
        self, db: Database, outbox: Outbox, reactions: Reactions | None = None, session: AsyncSession | None = None
    ) -> None:
        self._outbox = outbox
        self._reactions = reactions
        #: None for a transaction another owns (`Reactions.unit_in`): that owner commits it or rolls it back.
        self._transaction = db.transaction() if session is None else None
        self.session: AsyncSession
        if session is not None:
            self.session = session

    async def __aenter__(self) -> Self:
        if self._transaction is None:
            return self  # its events are reacted to when the owner commits (the hook `Reactions.raise_event` sets)
        self.session = await self._transaction.__aenter__()
        self.session.info[_OWNED] = True  # its events are reacted to by __aexit__, not by a commit hook
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._transaction is None:
            return  # an error goes on to the owner, which rolls its transaction back
        await self._transaction.__aexit__(kind, error, traceback)  # commits, or rolls back and re-raises
        if kind is None and self._reactions is not None:
            await self._reactions.dispatch(self.session.info.get(_RAISED, []))

    async def publish(self, event: Event, **options: Any) -> Envelope:
        """A bus event, sent by the relay once this unit of work commits (`Outbox.add`'s options)."""
        return await self._outbox.add(self.session, event, **options)

    async def raise_event(self, event: object) -> None:
        """An internal event, reacted to once this unit of work commits."""
        if self._reactions is None:
            raise LookupError(f"nothing reacts to {type(event).__name__}: this unit of work has no reactions")
        await self._reactions.raise_event(self.session, event)

    async def claim(self, seq: int) -> bool:
        """Take the recorded event `seq` for this unit of work's reaction: False when it is gone (reacted to
        already, or its transaction rolled back)."""
        assert self._reactions is not None, "only a reaction's unit of work claims an event"
        table = self._reactions.table
        result = await self.session.execute(delete(table).where(table.c.seq == seq))
        return bool(result.rowcount)  # type: ignore[attr-defined]


class UnitsOfWork:
    """Where a service's use cases get the database: `unit()` for work that writes (one transaction, a
    `UnitOfWork`), `reading()` for work that only reads (a read-only session: `Database.sessions`). Service code
    opens no transaction or session of its own (`tests/test_kit_plumbing.py`): it takes a unit of work from here,
    or from the request (`UnitOfWorkDep`, `ReadingDep` in `platform_kit.app`)."""

    def __init__(self, db: Database, outbox: Outbox) -> None:
        self.db = db
        self.outbox = outbox

    def unit(self) -> UnitOfWork:
        """A unit of work without reactions: a service that raises internal events takes its units from its
        `Reactions` instead (the tournament director)."""
        return UnitOfWork(self.db, self.outbox)

    def reading(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A session that refuses to write (`platform_kit.db.ReadOnlySession`), closed on leaving the block."""
        return self.db.sessions()

    def read_connection(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A connection for Core reads that refuses to write (`Database.read_connection`): cheaper than `reading()`
        where a route only reads through Core statements and is hot."""
        return self.db.read_connection()
