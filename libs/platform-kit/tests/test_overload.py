"""Overload degrades instead of hanging: a request that finds every database connection busy waits at most the
pool's timeout, then is refused with 503 `database_busy` and Retry-After (real PostgreSQL, a tiny pool)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from platform_kit.db import Database
from platform_kit.errors import install_handlers
from sqlalchemy import text

pytestmark = pytest.mark.postgres


async def test_a_request_finding_the_pool_exhausted_is_503_with_retry_after(postgres_url: str) -> None:
    db = Database(postgres_url, pool_size=1, pool_timeout=0.2)
    app = FastAPI()
    install_handlers(app)

    @app.get("/read")
    async def read() -> dict[str, int]:
        async with db.sessions() as session:
            return {"one": int(await session.scalar(text("SELECT 1")) or 0)}

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
