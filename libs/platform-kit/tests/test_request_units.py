"""`UnitsOfWork` and the request's unit of work (`UnitOfWorkDep`, `ReadingDep`): a route's writes and its outbox
rows commit together before its answer is sent, and roll back together when the route fails; a read session
refuses to write; a unit of work without reactions refuses an internal event."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
import pytest
from fastapi import FastAPI, HTTPException
from messaging_fixture import CreditGranted, create_schema, credited, credits, metadata
from platform_kit.app import ReadingDep, UnitOfWorkDep
from platform_kit.db import Database, ReadOnlySessionError
from platform_kit.outbox import Outbox
from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy import func, select


def app_on(units: UnitsOfWork) -> FastAPI:
    app = FastAPI()
    app.state.runtime = SimpleNamespace(units=units)

    @app.post("/credits/{account}")
    async def credit(account: str, uow: UnitOfWorkDep, fail: bool = False) -> dict[str, str]:
        await uow.session.execute(credits.insert().values(account=account, amount=5))
        await uow.publish(CreditGranted(account=account, amount=5))
        if fail:
            raise HTTPException(409, "refused after writing")
        return {"credited": account}

    @app.get("/credits")
    async def count(session: ReadingDep) -> dict[str, int]:
        return {"rows": int(await session.scalar(select(func.count()).select_from(credits)) or 0)}

    return app


async def outbox_rows(units: UnitsOfWork) -> int:
    async with units.reading() as session:
        return int(await session.scalar(select(func.count()).select_from(metadata.tables["outbox"])) or 0)


async def test_a_routes_work_commits_before_its_answer_and_rolls_back_when_it_fails(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    await create_schema(db)
    units = UnitsOfWork(db, Outbox(metadata.tables["outbox"], producer="test"))
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app_on(units)), base_url="http://t") as client:
            assert (await client.post("/credits/a")).status_code == 200
            assert await credited(db, "a") == (1, 5) and await outbox_rows(units) == 1
            assert (await client.post("/credits/b", params={"fail": True})).status_code == 409
            assert await credited(db, "b") == (0, 0) and await outbox_rows(units) == 1
            assert (await client.get("/credits")).json() == {"rows": 1}
    finally:
        await db.dispose()


async def test_a_read_session_refuses_to_write_and_a_plain_unit_refuses_internal_events(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    await create_schema(db)
    units = UnitsOfWork(db, Outbox(metadata.tables["outbox"], producer="test"))
    try:
        with pytest.raises(ReadOnlySessionError):
            async with units.reading() as session:
                await session.execute(credits.insert().values(account="x", amount=1))
        with pytest.raises(LookupError, match="nothing reacts to"):
            async with units.unit() as uow:
                await uow.raise_event(CreditGranted(account="x", amount=1))
        assert await credited(db, "x") == (0, 0)
    finally:
        await db.dispose()
