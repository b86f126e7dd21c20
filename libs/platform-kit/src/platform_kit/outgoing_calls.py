"""Durable idempotent calls to another service: each call recorded in the caller's transaction before it is
made, made with the kit's internal client under a key the caller derived, and its answer applied once.

    table = CallTable(outgoing_calls_table(metadata))    # the service's table (and a migration creating it)
    call = await table.record(uow.session, key="td:t1:payouts", target="wallet", operation="payouts",
                              request=wo.PRIZE_PAYOUTS.request(body, tournament_id="t1"), now=now, group="t1")
    ...                                       # the caller's transaction commits the call with its work
    call = await calls.make(call, complete)   # an OutgoingCalls; complete(uow, call, answer): the caller's part

Answers to calls that come back together can be applied together: `send` each, then `apply_all` the answers in
one unit of work (the director applies the buy-ins of one tournament so, each batch locking its row once).

A request is a path and a JSON body, POSTed (`WalletRequest` carries them, whatever the target), and the
headers it is sent with (e.g. `X-Concessionaire-Id` of the concessionaire a call acts for), kept in the
`headers` column of a table that has one (`headers_column()`: a caller whose calls carry headers adds it).

Invariant: a call's key and request are written once, with the work that asks for them, and every attempt
sends exactly them — the key is derived from what the call is for, never random — so the other service (which
carries a keyed request out once and answers a repeat with its first answer) acts on the call at most once.
A call's answer is applied exactly once: the call's row is locked, found still `pending`, marked `done` (a 2xx)
or `refused` (a 4xx: final for the key), and the caller's completion runs, all in ONE unit of work (with the
other answers of its batch, under `apply_all`: the rows locked in the order of their ids, as every locker takes
them, so two batches never wait on each other in a cycle).

Crash behaviour: whatever dies — the call on the way, the process, the database connection between the answer
and its commit — the row is still `pending`, and the call is made again with the same key and request; no
answer ("unreachable": a network error, a timeout, a 5xx, a 401 whose request was not acted on) is counted as
an attempt and changes nothing else. Two drivers of one call (a request and the recovery pass, two replicas)
both send it; the second to take the row's lock finds it answered and leaves it as the first applied it.
`recover` drives the pending calls of every group in the order recorded; a call still unanswered holds back
the later ones of its group when the caller says so (an overlay funds the payouts recorded after it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import httpx
from sqlalchemy import Column, Index, Integer, MetaData, String, Table, Text, bindparam, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.schema import SchemaItem

from platform_kit.db import BigIntPK, UtcDateTime
from platform_kit.internal_client import InternalClient
from platform_kit.unit_of_work import UnitOfWork
from platform_kit.wallet_operations import WalletRequest

__all__ = [
    "OUTGOING_CALLS_TABLE",
    "Answer",
    "CallStatus",
    "CallTable",
    "Completion",
    "CompletionOfAll",
    "NewCall",
    "OutgoingCall",
    "OutgoingCalls",
    "Unanswered",
    "headers_column",
    "outgoing_calls_table",
    "post",
]

log = logging.getLogger(__name__)

OUTGOING_CALLS_TABLE = "outgoing_calls"


def outgoing_calls_table(metadata: MetaData, *own: SchemaItem) -> Table:
    """The calls recorded, with the caller's `own` columns and indexes (who a call is for, for its queries)."""
    name = OUTGOING_CALLS_TABLE
    return Table(
        name,
        metadata,
        Column("call_id", BigIntPK, primary_key=True, autoincrement=True),
        Column("idempotency_key", String(200), nullable=False, unique=True),
        Column("target", String(40), nullable=False),
        Column("operation", String(40), nullable=False),
        #: The calls of one group (a tournament, a draw) are recovered in the order recorded.
        Column("group_key", String(200), nullable=True),
        Column("path", String(300), nullable=False),
        Column("body", Text, nullable=False),
        Column("status", String(10), nullable=False),
        Column("attempts", Integer, nullable=False),
        Column("answer", Text, nullable=True),
        Column("refusal_code", String(80), nullable=True),
        Column("created_at", UtcDateTime, nullable=False),
        Column("updated_at", UtcDateTime, nullable=False),
        Index(f"ix_{name}_status", "status"),
        Index(f"ix_{name}_group_key", "group_key"),
        *own,
    )


HEADERS = "headers"


def headers_column() -> Column[Any]:
    """The column of the headers a request is sent with (JSON; NULL: none), for a table whose calls carry any:
    stored with the call, they are sent again with it after a crash."""
    return Column(HEADERS, Text, nullable=True)


class CallStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    REFUSED = "refused"  # a definite refusal (insufficient funds …): the same key gets it again


@dataclass(frozen=True)
class Answer:
    """What a service answered: a 2xx result, or a refusal (4xx problem+json with its `code`)."""

    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def code(self) -> str:
        return str(self.body.get("code", "refused")) if isinstance(self.body, dict) else "refused"

    @property
    def message(self) -> str:
        return str(self.body.get("title", self.code)) if isinstance(self.body, dict) else self.code


class Unanswered(Exception):
    """The service did not answer (network error, timeout, 5xx, 401): the call may or may not have taken
    effect, so it is made again later with the same key and request."""


@dataclass(frozen=True)
class OutgoingCall:
    call_id: int
    key: str
    target: str
    operation: str
    group: str | None
    request: WalletRequest
    status: CallStatus
    attempts: int
    answer: Any
    refusal_code: str | None
    created_at: datetime
    updated_at: datetime
    #: The caller's own columns (`outgoing_calls_table(metadata, *own)`), by name.
    own: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewCall:
    """A call to record (`CallTable.record_all`): `record`'s arguments."""

    key: str
    target: str
    operation: str
    request: WalletRequest
    group: str | None = None
    own: Mapping[str, Any] = field(default_factory=dict)


#: The caller's part of an answer, in the unit of work that marks the call answered.
Completion = Callable[[UnitOfWork, OutgoingCall, Answer], Awaitable[None]]
#: The caller's part of several answers applied together (`OutgoingCalls.apply_all`), in one unit of work.
CompletionOfAll = Callable[[UnitOfWork, Sequence[tuple[OutgoingCall, Answer]]], Awaitable[None]]


async def post(
    client: InternalClient,
    path: str,
    body: Any,
    *,
    idempotency_key: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """POST `body`; the service's answer, or `Unanswered`. A 401 means our token was refused and nothing done."""
    try:
        response = await client.request("POST", path, json=body, idempotency_key=idempotency_key, headers=headers)
    except httpx.HTTPError as error:
        raise Unanswered(f"POST {path}: {error!r}") from error
    if response.status_code >= 500 or response.status_code == 401:
        raise Unanswered(f"POST {path}: {response.status_code}")
    try:
        payload = response.json()
    except ValueError:
        payload = None
    return Answer(response.status_code, payload)


class CallTable:
    """The calls recorded in one table (`outgoing_calls_table`): what is written and read, no I/O but SQL."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._own = [c.name for c in table.columns if c.name not in _KIT_COLUMNS and c.name != HEADERS]
        self._has_headers = HEADERS in table.c

    async def record(
        self,
        session: AsyncSession,
        *,
        key: str,
        target: str,
        operation: str,
        request: WalletRequest,
        now: datetime,
        group: str | None = None,
        **own: Any,
    ) -> OutgoingCall:
        """A new pending call in `session`'s transaction, as recorded (its driver needs not read it back)."""
        (call,) = await self.record_all(session, [NewCall(key, target, operation, request, group, own)], now)
        return call

    async def record_all(
        self, session: AsyncSession, calls: Sequence[NewCall], now: datetime, *, chunk: int = 1000
    ) -> list[OutgoingCall]:
        """Many new pending calls in `session`'s transaction, a statement per `chunk` of them; the calls as
        recorded, in the order given."""
        rows = [{**self._values(c.key, c.target, c.operation, c.request, now, c.group), **c.own} for c in calls]
        recorded: list[OutgoingCall] = []
        insert = self.table.insert().returning(self.table.c.call_id, sort_by_parameter_order=True)
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            ids = (await session.execute(insert, part)).scalars().all()
            recorded += [
                self.call({**dict.fromkeys(self._own), **row, "call_id": call_id, "answer": None})
                for row, call_id in zip(part, ids, strict=True)
            ]
        return recorded

    async def lock_all(self, session: AsyncSession, call_ids: Sequence[int]) -> dict[int, OutgoingCall]:
        """The calls, locked (in the order of their ids, as every locker of several takes them), by id."""
        query = (
            select(self.table)
            .where(self.table.c.call_id.in_(call_ids))
            .order_by(self.table.c.call_id)
            .with_for_update()
        )
        return {int(row["call_id"]): self.call(row) for row in (await session.execute(query)).mappings()}

    async def by_key(self, session: AsyncSession, key: str) -> OutgoingCall | None:
        return await self.first(session, self.table.c.idempotency_key == key)

    async def first(self, session: AsyncSession, *where: Any) -> OutgoingCall | None:
        row = (await session.execute(select(self.table).where(*where))).mappings().first()
        return None if row is None else self.call(row)

    async def where(self, session: AsyncSession, *where: Any) -> list[OutgoingCall]:
        """The calls that match, in the order recorded."""
        query = select(self.table).where(*where).order_by(self.table.c.call_id)
        return [self.call(row) for row in (await session.execute(query)).mappings()]

    async def pending(self, session: AsyncSession, *where: Any) -> list[OutgoingCall]:
        return await self.where(session, self.table.c.status == CallStatus.PENDING.value, *where)

    async def answer_all(
        self, session: AsyncSession, answers: Sequence[tuple[OutgoingCall, Answer]], now: datetime
    ) -> list[OutgoingCall]:
        """Mark each call answered (one statement, sent once for all); the calls as they now stand, in order."""
        answered = [_answered(call, answer, now) for call, answer in answers]
        table = self.table
        statement = (
            update(table)
            .where(table.c.call_id == bindparam("answered_call_id"))
            .values(
                status=bindparam("answered_status"),
                answer=bindparam("answered_body"),
                refusal_code=bindparam("answered_refusal"),
                updated_at=now,
            )
        )
        rows = [
            {
                "answered_call_id": call.call_id,
                "answered_status": call.status.value,
                "answered_body": json.dumps(call.answer),
                "answered_refusal": call.refusal_code,
            }
            for call in answered
        ]
        if rows:
            await session.execute(statement, rows)
        return answered

    async def count_attempt(self, session: AsyncSession, call_id: int, now: datetime) -> None:
        await session.execute(
            update(self.table)
            .where(self.table.c.call_id == call_id)
            .values(attempts=self.table.c.attempts + 1, updated_at=now)
        )

    def call(self, row: RowMapping | Mapping[str, Any]) -> OutgoingCall:
        """A row of the table as a call."""
        answer = row["answer"]
        return OutgoingCall(
            call_id=int(row["call_id"]),
            key=row["idempotency_key"],
            target=row["target"],
            operation=row["operation"],
            group=row["group_key"],
            request=WalletRequest(row["path"], json.loads(row["body"]), self._headers_of(row)),
            status=CallStatus(row["status"]),
            attempts=row["attempts"],
            answer=None if answer is None else json.loads(answer),
            refusal_code=row.get("refusal_code"),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            own={name: row.get(name) for name in self._own},
        )

    def _headers_of(self, row: RowMapping | Mapping[str, Any]) -> dict[str, str]:
        stored = row.get(HEADERS) if self._has_headers else None
        return {} if stored is None else dict(json.loads(stored))

    def _values(
        self, key: str, target: str, operation: str, request: WalletRequest, now: datetime, group: str | None
    ) -> dict[str, Any]:
        # Headers that could not be stored would be missing from the call made again: refused here, loudly.
        assert self._has_headers or not request.headers, f"{self.table.name} has no {HEADERS} column"
        headers = {HEADERS: json.dumps(request.headers, sort_keys=True) if request.headers else None}
        return {
            **(headers if self._has_headers else {}),
            "idempotency_key": key,
            "target": target,
            "operation": operation,
            "group_key": group,
            "path": request.path,
            "body": json.dumps(request.body, sort_keys=True),
            "status": CallStatus.PENDING.value,
            "attempts": 0,
            "created_at": now,
            "updated_at": now,
        }


def _answered(call: OutgoingCall, answer: Answer, now: datetime) -> OutgoingCall:
    """`call` marked answered: `done` (a 2xx) or `refused` (with the refusal's code)."""
    status = CallStatus.DONE if answer.ok else CallStatus.REFUSED
    refusal = answer.code if status is CallStatus.REFUSED and isinstance(answer.body, dict) else None
    return replace(call, status=status, answer=answer.body, refusal_code=refusal, updated_at=now)


class OutgoingCalls:
    """Makes the calls of `calls` through `clients` (target -> its internal client) and applies their answers in
    `unit()` (a unit of work: `UnitsOfWork.unit`, or `Reactions.unit` where completions raise internal events);
    `reads()` is a session for the recovery's read."""

    def __init__(
        self,
        calls: CallTable,
        clients: Mapping[str, InternalClient],
        *,
        unit: Callable[[], UnitOfWork],
        reads: Callable[[], AbstractAsyncContextManager[AsyncSession]],
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.calls = calls
        self.clients = clients
        self.unit = unit
        self.reads = reads
        self.now = now

    async def make(self, call: OutgoingCall, complete: Completion) -> OutgoingCall:
        """Send the call and apply its answer; the call as it stands afterwards (still pending when the target
        could not be reached). `call` is as its caller recorded or read it: the answer is applied under the
        row's lock, once, whoever else makes it meanwhile."""
        if call.status is not CallStatus.PENDING:
            return call
        answer = await self.send(call)
        if answer is None:
            return replace(call, attempts=call.attempts + 1)

        async def complete_one(uow: UnitOfWork, answered: Sequence[tuple[OutgoingCall, Answer]]) -> None:
            for each, its_answer in answered:
                await complete(uow, each, its_answer)

        (made,) = await self.apply_all([(call, answer)], complete_one)
        return made

    async def send(self, call: OutgoingCall) -> Answer | None:
        """Send the call: its answer, or None when it went unanswered (the attempt counted; made again later)."""
        try:
            request = call.request
            return await post(
                self.clients[call.target], request.path, request.body, idempotency_key=call.key, headers=request.headers
            )
        except Unanswered as error:
            log.warning("call unanswered; it will be made again", extra={"key": call.key, "error": str(error)})
            async with self.unit() as uow:
                await self.calls.count_attempt(uow.session, call.call_id, self.now())
            return None

    async def apply_all(
        self, answers: Sequence[tuple[OutgoingCall, Answer]], complete_all: CompletionOfAll
    ) -> list[OutgoingCall]:
        """Apply the answers to several calls in ONE unit of work: the calls locked, those still pending marked
        answered and given to `complete_all` (once each, however often a call is listed); a call another driver
        answered first stays as that driver left it. The calls as they stand afterwards, in the order given."""
        async with self.unit() as uow:
            session = uow.session
            current = await self.calls.lock_all(session, [call.call_id for call, _ in answers])
            fresh: dict[int, Answer] = {}
            for call, answer in answers:
                assert call.call_id in current, f"no outgoing call {call.call_id}"
                if current[call.call_id].status is CallStatus.PENDING:
                    fresh.setdefault(call.call_id, answer)
            answering = [(current[call_id], answer) for call_id, answer in fresh.items()]
            answered = await self.calls.answer_all(session, answering, self.now())
            if answered:
                await complete_all(uow, [(call, fresh[call.call_id]) for call in answered])
        current.update((call.call_id, call) for call in answered)
        return [current[call.call_id] for call, _ in answers]

    async def recover(
        self,
        complete: Completion,
        *,
        due: Callable[[OutgoingCall], bool] = lambda call: True,
        holds_back: Callable[[OutgoingCall], bool] = lambda call: True,
    ) -> int:
        """Make the pending calls that are `due`, group by group in the order recorded; a call still unanswered
        that `holds_back`, or one whose answer could not be applied (a bug, logged), stops its group until the
        next pass. How many were made."""
        async with self.reads() as session:
            waiting = await self.calls.pending(session)
        groups: dict[str | None, list[OutgoingCall]] = {}
        for call in waiting:
            groups.setdefault(call.group, []).append(call)
        made = 0
        for calls in groups.values():
            made += await self._recover_group(calls, complete, due, holds_back)
        return made

    async def _recover_group(
        self,
        calls: list[OutgoingCall],
        complete: Completion,
        due: Callable[[OutgoingCall], bool],
        holds_back: Callable[[OutgoingCall], bool],
    ) -> int:
        made = 0
        for call in calls:
            if not due(call):
                continue
            made += 1
            try:
                answered = await self.make(call, complete)
            except Exception:
                # Its answer could not be applied (a bug): it stays pending and is tried again at the next pass.
                log.exception("outgoing call failed", extra={"key": call.key})
                return made
            if answered.status is CallStatus.PENDING and holds_back(call):
                return made
        return made


_KIT_COLUMNS = frozenset(
    {
        "call_id",
        "idempotency_key",
        "target",
        "operation",
        "group_key",
        "path",
        "body",
        "status",
        "attempts",
        "answer",
        "refusal_code",
        "created_at",
        "updated_at",
    }
)
