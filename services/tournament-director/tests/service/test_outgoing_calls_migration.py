"""Migration 0012: the money steps move to the kit's outgoing calls (issue 19) with their ids, keys, requests,
statuses, answers and attempts unchanged — a step pending at the upgrade is made again under the same key with
the same request — and the ids of new calls continue after theirs; a downgrade moves them back."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from platform_kit.migrations import alembic_config
from platform_kit.wallet_operations import WalletRequest
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from tournament_director.adapters import money_steps
from tournament_director.adapters.money_steps import StepKind, StepStatus

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
BODY = {"currency": "EUR", "payouts": [{"player_id": "p1", "amount": 500}]}
COLUMNS = ("step_id", "tournament_id", "player_id", "kind", "idempotency_key", "client_key", "path", "body")
STEPS = sa.table("money_steps", *(sa.column(c) for c in (*COLUMNS, "status", "attempts", "answer", "updated_at")))


def _step(step_id: int, kind: str, status: str, answer: object = None, player: str | None = None) -> dict[str, object]:
    return {
        "step_id": step_id,
        "tournament_id": "t1",
        "player_id": player,
        "kind": kind,
        "idempotency_key": f"td:t1:{kind}:{step_id}",
        "client_key": "client-1" if player else None,
        "path": "/internal/v1/tournaments/t1/payouts",
        "body": json.dumps(BODY, sort_keys=True),
        "status": status,
        "attempts": 2,
        "answer": None if answer is None else json.dumps(answer),
        "refusal_code": None,
        "created_at": T0,
        "updated_at": T0,
    }


async def moved_and_back(url: str) -> None:
    config = alembic_config(url, MIGRATIONS)
    await asyncio.to_thread(command.upgrade, config, "0011")
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        table = await connection.run_sync(lambda sync: sa.Table("money_steps", sa.MetaData(), autoload_with=sync))
        await connection.execute(
            table.insert(),
            [_step(7, "payouts", "pending"), _step(9, "rebuy", "done", {"operation_id": 3}, player="p1")],
        )
    await asyncio.to_thread(command.upgrade, config, "head")
    async with AsyncSession(engine) as session, session.begin():
        pending = await money_steps.CALLS.pending(session)
        rebuy = await money_steps.by_key(session, "t1:rebuy:9")
        new = await money_steps.record(
            session,
            tournament_id="t2",
            kind=StepKind.TAX,
            key="t2:tax",
            request=WalletRequest("/internal/v1/x", {}),
            now=T0,
        )
    (payouts,) = pending
    assert (payouts.call_id, payouts.key, payouts.group, payouts.operation) == (7, "td:t1:payouts:7", "t1", "payouts")
    assert (payouts.request.path, payouts.request.body, payouts.attempts) == (
        "/internal/v1/tournaments/t1/payouts",
        BODY,
        2,
    )
    assert rebuy is not None and (rebuy.step_id, rebuy.kind, rebuy.status) == (9, StepKind.REBUY, StepStatus.DONE)
    assert (rebuy.player_id, rebuy.client_key, rebuy.answer) == ("p1", "client-1", {"operation_id": 3})
    assert new.step_id == 10, "new calls continue after the ids moved in"

    await asyncio.to_thread(command.downgrade, config, "0011")
    async with engine.connect() as connection:
        rows = (await connection.execute(sa.select(STEPS).order_by(STEPS.c.step_id))).all()
    await engine.dispose()
    assert [(r.step_id, r.idempotency_key, r.kind, r.status, r.player_id) for r in rows] == [
        (7, "td:t1:payouts:7", "payouts", "pending", None),
        (9, "td:t1:rebuy:9", "rebuy", "done", "p1"),
        (10, "td:t2:tax", "tax", "pending", None),
    ]


async def test_money_steps_move_to_the_outgoing_calls_unchanged(sqlite_url: str) -> None:
    await moved_and_back(sqlite_url)


@pytest.mark.postgres
async def test_money_steps_move_to_the_outgoing_calls_unchanged_on_postgresql(postgres_url: str) -> None:
    await moved_and_back(postgres_url)
