"""`OutgoingCalls`: a call is recorded with the work that asks for it, made with the same key and request however
often it is made again, and its answer applied once together with the caller's completion; the recovery pass
goes through each group in order — on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx
import pytest
from platform_kit.db import Database
from platform_kit.internal_client import InternalClient
from platform_kit.outbox import Outbox
from platform_kit.outgoing_calls import (
    Answer,
    CallStatus,
    CallTable,
    NewCall,
    OutgoingCall,
    OutgoingCalls,
    headers_column,
    outgoing_calls_table,
)
from platform_kit.runtime import add_messaging_tables
from platform_kit.unit_of_work import REACTIONS_TABLE, Reactions, UnitOfWork, reactions_table
from platform_kit.wallet_operations import ACTING_HEADER, WalletRequest
from sqlalchemy import Column, Integer, MetaData, String, Table, func, select

metadata = MetaData()
add_messaging_tables(metadata)
reactions_table(metadata)
calls_table = outgoing_calls_table(metadata, Column("player_id", String(50), nullable=True), headers_column())
#: What the caller's completions did: one row per answer applied.
applied = Table(
    "applied",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("call_key", String(200), nullable=False),
    Column("status", String(10), nullable=False),
)


@dataclass
class Service:
    """The called service: answers a keyed POST once per key (a repeat gets the first answer), refuses paths
    ending in /refused, and is unreachable while `down`."""

    down: bool = False
    #: Answers 401 (our token refused: nothing done), as a service with another token would.
    refuses_token: bool = False
    #: (key, path, body, X-Concessionaire-Id) of each request received.
    seen: list[tuple[str, str, dict[str, object], str | None]] = field(default_factory=list)
    answers: dict[str, httpx.Response] = field(default_factory=dict)

    def handle(self, request: httpx.Request) -> httpx.Response:
        key = request.headers["Idempotency-Key"]
        self.seen.append((key, request.url.path, json.loads(request.content), request.headers.get(ACTING_HEADER)))
        if self.down:
            raise httpx.ConnectError("down", request=request)
        if self.refuses_token:
            return httpx.Response(401, json={"code": "unauthorized"})
        if key not in self.answers:
            refused = request.url.path.endswith("/refused")
            self.answers[key] = (
                httpx.Response(409, json={"code": "insufficient_funds", "title": "No"})
                if refused
                else httpx.Response(201, json={"operation_id": len(self.answers) + 1})
            )
        first = self.answers[key]
        return httpx.Response(first.status_code, content=first.content, headers=first.headers)


@dataclass
class Caller:
    db: Database
    calls: OutgoingCalls
    reactions: Reactions
    service: Service
    clock: list[datetime]


@asynccontextmanager
async def caller(url: str) -> AsyncIterator[Caller]:
    db = Database(url)
    async with db.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
    clock = [datetime(2025, 1, 1, tzinfo=UTC)]
    reactions = Reactions(db, Outbox(metadata.tables["outbox"], producer="test"), metadata.tables[REACTIONS_TABLE])
    service = Service()
    client = InternalClient("http://svc", "token", transport=httpx.MockTransport(service.handle))
    calls = OutgoingCalls(
        CallTable(calls_table),
        {"svc": client},
        unit=reactions.unit,
        reads=db.sessions,
        now=lambda: clock[0],
    )
    try:
        yield Caller(db, calls, reactions, service, clock)
    finally:
        await client.aclose()
        await db.dispose()


async def record(
    c: Caller, key: str, *, group: str = "g1", path: str = "/internal/v1/x", acting: str | None = None
) -> OutgoingCall:
    async with c.reactions.unit() as uow:
        request = WalletRequest(path, {"amount": 5, "key": key})
        request = request if acting is None else request.acting_for(acting)
        return await c.calls.calls.record(
            uow.session,
            key=key,
            target="svc",
            operation="pay",
            request=request,
            now=c.clock[0],
            group=group,
            player_id="p1",
        )


async def complete(uow: UnitOfWork, call: OutgoingCall, answer: Answer) -> None:
    await uow.session.execute(applied.insert().values(call_key=call.key, status=call.status.value))


async def completions(c: Caller) -> list[tuple[str, str]]:
    async with c.db.sessions() as session:
        return [tuple(row) for row in await session.execute(select(applied.c.call_key, applied.c.status))]


async def answered_once_with_the_same_key_and_request(url: str) -> None:
    async with caller(url) as c:
        call = await record(c, "k1")
        c.service.down = True
        unanswered = await c.calls.make(call, complete)
        assert unanswered.status is CallStatus.PENDING and unanswered.attempts == 1
        c.service.down, c.service.refuses_token = False, True
        assert (await c.calls.make(call, complete)).status is CallStatus.PENDING, "a 401 is no answer"
        c.service.refuses_token = False
        done = await c.calls.make(call, complete)
        assert done.status is CallStatus.DONE and done.answer == {"operation_id": 1}
        again = await c.calls.make(call, complete)  # a stale copy, made again: the answer is not applied twice
        assert again.status is CallStatus.DONE
        assert [s[0] for s in c.service.seen] == ["k1", "k1", "k1", "k1"]
        assert all(sent == c.service.seen[0] for sent in c.service.seen), "the same key, path and body each time"
        assert await completions(c) == [("k1", "done")]
        async with c.db.sessions() as session:
            stored = await c.calls.calls.by_key(session, "k1")
        assert stored is not None and stored.attempts == 2 and stored.own == {"player_id": "p1"}
        assert stored.status is CallStatus.DONE and stored.answer == {"operation_id": 1}

        refused = await c.calls.make(await record(c, "k2", path="/internal/v1/refused"), complete)
        assert refused.status is CallStatus.REFUSED and refused.refusal_code == "insufficient_funds"
        assert await completions(c) == [("k1", "done"), ("k2", "refused")]


async def made_twice_at_once_applied_once(url: str) -> None:
    async with caller(url) as c:
        call = await record(c, "k1")
        first, second = await asyncio.gather(c.calls.make(call, complete), c.calls.make(call, complete))
        assert first.status is second.status is CallStatus.DONE
        assert await completions(c) == [("k1", "done")]


async def a_rolled_back_recording_leaves_no_call(url: str) -> None:
    async with caller(url) as c:
        with pytest.raises(RuntimeError):
            async with c.reactions.unit() as uow:
                request = WalletRequest("/x", {})
                await c.calls.calls.record(
                    uow.session, key="k1", target="svc", operation="pay", request=request, now=c.clock[0]
                )
                raise RuntimeError("the work fails")
        async with c.db.sessions() as session:
            assert await session.scalar(select(func.count()).select_from(calls_table)) == 0


async def a_failing_completion_leaves_the_call_pending(url: str) -> None:
    async with caller(url) as c:
        call = await record(c, "k1")

        async def failing(uow: UnitOfWork, call: OutgoingCall, answer: Answer) -> None:
            await complete(uow, call, answer)
            raise RuntimeError("a bug")

        with pytest.raises(RuntimeError):
            await c.calls.make(call, failing)
        async with c.db.sessions() as session:
            assert (await c.calls.calls.pending(session))[0].key == "k1"
        assert await completions(c) == []
        assert (await c.calls.make(call, complete)).status is CallStatus.DONE
        assert await completions(c) == [("k1", "done")]


async def recovered_in_order_per_group(url: str) -> None:
    async with caller(url) as c:
        for key, group in (("a1", "a"), ("b1", "b"), ("a2", "a"), ("b2", "b")):
            await record(c, key, group=group)
        recent = await record(c, "a3", group="a")
        c.service.down = True
        made = await c.calls.recover(complete)
        assert made == 2 and [s[0] for s in c.service.seen] == ["a1", "b1"], "an unanswered call holds back"
        c.service.seen.clear()
        made = await c.calls.recover(complete, holds_back=lambda call: False)
        assert made == 5 and [s[0] for s in c.service.seen] == ["a1", "a2", "a3", "b1", "b2"]
        c.service.down = False
        c.service.seen.clear()
        made = await c.calls.recover(complete, due=lambda call: call.call_id != recent.call_id)
        assert made == 4 and [s[0] for s in c.service.seen] == ["a1", "a2", "b1", "b2"], "only what is due"
        assert await completions(c) == [("a1", "done"), ("a2", "done"), ("b1", "done"), ("b2", "done")]
        async with c.db.sessions() as session:
            (left,) = await c.calls.calls.pending(session)
        assert left.key == "a3" and left.attempts == 1, "unanswered once, then not due"


async def recorded_together(url: str) -> None:
    async with caller(url) as c:
        new = [
            NewCall(f"k{n}", "svc", "pay", WalletRequest(f"/x/{n}", {"n": n}), group="g", own={"player_id": f"p{n}"})
            for n in range(5)
        ]
        async with c.reactions.unit() as uow:
            returned = await c.calls.calls.record_all(uow.session, new, c.clock[0], chunk=2)
        async with c.db.sessions() as session:
            recorded = await c.calls.calls.pending(session)
        assert [(r.key, r.request, r.own["player_id"], r.attempts) for r in recorded] == [
            (f"k{n}", WalletRequest(f"/x/{n}", {"n": n}), f"p{n}", 0) for n in range(5)
        ]
        assert returned == recorded, "returned as recorded, each with its id, in the order given"
        assert await c.calls.recover(complete) == 5
        assert [key for key, _ in await completions(c)] == [f"k{n}" for n in range(5)]


async def answers_applied_together(url: str) -> None:
    """Several answers in one unit of work: each call's answer applied once, however often it is listed; a
    call another driver answered first is left as it stands; every call comes back as it now stands."""
    async with caller(url) as c:
        first, second, refused = [await record(c, k, path=p) for k, p in (("a", "/x"), ("b", "/x"), ("c", "/refused"))]
        answers = {}
        for call in (first, second, refused):
            answer = await c.calls.send(call)
            assert answer is not None
            answers[call.key] = answer
        assert (await c.calls.make(second, complete)).status is CallStatus.DONE  # another driver, first
        given: list[list[str]] = []

        async def complete_all(uow: UnitOfWork, answered: Sequence[tuple[OutgoingCall, Answer]]) -> None:
            given.append([call.key for call, _ in answered])
            for call, answer in answered:
                await complete(uow, call, answer)

        listed = [first, second, refused, first]
        made = await c.calls.apply_all([(call, answers[call.key]) for call in listed], complete_all)

        assert [(call.key, call.status) for call in made] == [
            ("a", CallStatus.DONE),
            ("b", CallStatus.DONE),
            ("c", CallStatus.REFUSED),
            ("a", CallStatus.DONE),
        ]
        assert made[2].refusal_code == "insufficient_funds"
        assert given == [["a", "c"]]
        assert sorted(await completions(c)) == [("a", "done"), ("b", "done"), ("c", "refused")]
        async with c.db.sessions() as session:
            assert await c.calls.calls.pending(session) == []


async def made_again_with_its_headers(url: str) -> None:
    """A call made for a concessionaire carries its X-Concessionaire-Id every time it is made, also when the
    recovery reads it back after the first attempt found the service down (a crash, a lost answer)."""
    async with caller(url) as c:
        call = await record(c, "k1", acting="c1")
        plain = await record(c, "k2", group="g2")
        c.service.down = True
        await c.calls.make(call, complete)
        c.service.down = False
        assert await c.calls.recover(complete) == 2
        assert [(key, acting) for key, _, _, acting in c.service.seen] == [("k1", "c1"), ("k1", "c1"), ("k2", None)]
        async with c.db.sessions() as session:
            stored = await c.calls.calls.by_key(session, "k1")
        assert stored is not None and stored.request.headers == {ACTING_HEADER: "c1"}
        assert stored.own == {"player_id": "p1"} and plain.request.headers == {}


SCENARIOS: list[Callable[[str], Awaitable[None]]] = [
    answered_once_with_the_same_key_and_request,
    made_twice_at_once_applied_once,
    a_rolled_back_recording_leaves_no_call,
    a_failing_completion_leaves_the_call_pending,
    recovered_in_order_per_group,
    recorded_together,
    answers_applied_together,
    made_again_with_its_headers,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
async def test_on_sqlite(sqlite_url: str, scenario: Callable[[str], Awaitable[None]]) -> None:
    await scenario(sqlite_url)


@pytest.mark.postgres
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
async def test_on_postgresql(postgres_url: str, scenario: Callable[[str], Awaitable[None]]) -> None:
    await scenario(postgres_url)


async def test_a_table_without_a_headers_column_refuses_a_call_with_headers(sqlite_url: str) -> None:
    """Headers it could not store would be missing when the call is made again: refused when recorded."""
    table = CallTable(outgoing_calls_table(MetaData()))
    db = Database(sqlite_url)
    try:
        async with db.engine.begin() as connection:
            await connection.run_sync(table.table.metadata.create_all)
        async with db.sessions() as session:
            with pytest.raises(AssertionError, match="no headers column"):
                await table.record(
                    session,
                    key="k1",
                    target="svc",
                    operation="pay",
                    request=WalletRequest("/x", {}).acting_for("c1"),
                    now=datetime(2025, 1, 1, tzinfo=UTC),
                )
            assert await session.scalar(select(func.count()).select_from(table.table)) == 0
    finally:
        await db.dispose()
