"""Migration 0006: money steps recorded before the wallet's routes moved to `/internal/v1` (issue 19) name the
route they will be sent to again, with their key and body unchanged; a downgrade gives them back the old one."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from platform_kit.migrations import alembic_config
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
#: The money steps' table as it stood at 0005 and 0006 (the kit's outgoing calls since 0012).
money_steps = sa.table(
    "money_steps",
    *(sa.column(name) for name in ("tournament_id", "kind", "idempotency_key", "path", "body")),
    *(sa.column(name) for name in ("status", "attempts", "created_at", "updated_at")),
)
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


def _step(key: str, path: str) -> dict[str, object]:
    body = json.dumps({"currency": "EUR", "payouts": [{"player_id": "p1", "amount": 500}]})
    return {
        "tournament_id": "t1",
        "kind": "payouts",
        "idempotency_key": key,
        "path": path,
        "body": body,
        "status": "pending",
        "attempts": 1,
        "created_at": T0,
        "updated_at": T0,
    }


async def test_pending_steps_name_the_wallets_internal_routes_after_the_upgrade(sqlite_url: str) -> None:
    config = alembic_config(sqlite_url, MIGRATIONS)
    await asyncio.to_thread(command.upgrade, config, "0005")
    engine = create_async_engine(sqlite_url)
    async with engine.begin() as connection:
        await connection.execute(
            money_steps.insert(),
            [_step("td:t1:payouts", "/v1/tournaments/t1/payouts"), _step("td:t1:new", "/internal/v1/x")],
        )

    async def paths() -> list[tuple[str, str]]:
        async with engine.connect() as connection:
            rows = await connection.execute(select(money_steps.c.idempotency_key, money_steps.c.path))
            return sorted((key, path) for key, path in rows)

    await asyncio.to_thread(command.upgrade, config, "0006")
    upgraded = await paths()
    await asyncio.to_thread(command.downgrade, config, "0005")
    downgraded = await paths()
    await engine.dispose()
    assert upgraded == [("td:t1:new", "/internal/v1/x"), ("td:t1:payouts", "/internal/v1/tournaments/t1/payouts")]
    assert downgraded == [("td:t1:new", "/v1/x"), ("td:t1:payouts", "/v1/tournaments/t1/payouts")]
