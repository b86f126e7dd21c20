"""Overload degrades instead of hanging: a request that finds every database connection busy waits at most the
pool's timeout, then is refused with 503 `database_busy` and Retry-After (real PostgreSQL, a tiny pool); one the
database refuses a connection (its max_connections taken) or cannot be reached for is refused with 503
`database_unavailable` and Retry-After, not answered 500 — while a failing statement is still a fault (500)."""

from __future__ import annotations

import asyncio
import socket
import uuid

import httpx
import pytest
from fastapi import FastAPI
from platform_kit.db import Database
from platform_kit.errors import install_handlers
from sqlalchemy import make_url, text

pytestmark = pytest.mark.postgres


def _reading_app(db: Database) -> FastAPI:
    app = FastAPI()
    install_handlers(app)

    @app.get("/read")
    async def read() -> dict[str, int]:
        async with db.sessions() as session:
            return {"one": int(await session.scalar(text("SELECT 1")) or 0)}

    @app.get("/fault")
    async def fault() -> dict[str, int]:
        async with db.sessions() as session:
            await session.execute(text("SELECT * FROM no_such_table"))
        return {}

    return app


async def _get(app: FastAPI, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc.test") as http:
        return await http.get(path)


async def test_a_request_finding_the_pool_exhausted_is_503_with_retry_after(postgres_url: str) -> None:
    db = Database(postgres_url, pool_size=1, pool_timeout=0.2)
    app = _reading_app(db)

    release = asyncio.Event()
    holding = asyncio.Semaphore(0)

    async def hold_a_connection() -> None:
        async with db.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
            holding.release()
            await release.wait()

    # pool_size 1 and no overflow: one held, so the request's checkout times out.
    holders = [asyncio.create_task(hold_a_connection())]
    try:
        for _ in holders:
            await holding.acquire()
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://svc.test") as http:
            busy = await http.get("/read")
            release.set()
            await asyncio.gather(*holders)
            served = await http.get("/read")
    finally:
        release.set()
        await db.dispose()
    assert (busy.status_code, busy.json()["code"], busy.headers["retry-after"]) == (503, "database_busy", "1")
    assert busy.headers["content-type"] == "application/problem+json"
    assert (served.status_code, served.json()) == (200, {"one": 1})


async def test_a_request_the_database_refuses_a_connection_is_503_with_retry_after(postgres_url: str) -> None:
    # A role allowed no connection: PostgreSQL refuses it with SQLSTATE 53300, as it refuses anyone once the
    # server's max_connections are taken (which a shared test server cannot be brought to safely).
    admin = Database(postgres_url)
    role = f"refused_{uuid.uuid4().hex[:8]}"
    async with admin.engine.connect() as connection:
        await connection.execute(text(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 0'))
        await connection.commit()
    refused = Database(str(make_url(postgres_url).set(username=role)))
    try:
        answer = await _get(_reading_app(refused), "/read")
    finally:
        await refused.dispose()
        async with admin.engine.connect() as connection:
            await connection.execute(text(f'DROP ROLE "{role}"'))
            await connection.commit()
        await admin.dispose()
    assert (answer.status_code, answer.json()["code"], answer.headers["retry-after"]) == (
        503,
        "database_unavailable",
        "1",
    )


async def test_an_unreachable_database_is_503_and_a_failing_statement_is_still_a_fault(postgres_url: str) -> None:
    with socket.socket() as probe:  # a port nobody listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        nobody = make_url(postgres_url).set(host="127.0.0.1", port=probe.getsockname()[1])
        unreachable = Database(str(nobody))
        try:
            answer = await _get(_reading_app(unreachable), "/read")
        finally:
            await unreachable.dispose()
    assert (answer.status_code, answer.json()["code"]) == (503, "database_unavailable")
    reachable = Database(postgres_url)
    try:
        fault = await _get(_reading_app(reachable), "/fault")
    finally:
        await reachable.dispose()
    assert fault.status_code == 500


async def test_a_connection_put_back_goes_to_the_request_that_waited_longest(postgres_url: str) -> None:
    """A request that waits for the pool is not overtaken by one that asks later (issue 14: on a busy event loop
    the late ones kept taking the connection before the woken waiter ran, and some waited past any timeout)."""
    db = Database(postgres_url, pool_size=1, pool_timeout=30)
    served: list[str] = []
    waiting = asyncio.Event()

    async def wait_for_the_connection() -> None:
        waiting.set()
        async with db.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
            served.append("waited")

    try:
        connection = await db.engine.connect()
        await connection.execute(text("SELECT 1"))
        waiter = asyncio.create_task(wait_for_the_connection())
        await waiting.wait()
        await asyncio.sleep(0)  # the waiter's checkout runs until it waits on the pool
        await connection.close()
        # Asked at once, before the waiter could run: the connection is already the waiter's.
        async with db.engine.connect() as later:
            await later.execute(text("SELECT 1"))
            served.append("asked later")
        await waiter
    finally:
        await db.dispose()
    assert served == ["waited", "asked later"]
