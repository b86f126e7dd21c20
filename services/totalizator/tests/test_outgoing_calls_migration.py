"""Migration 0004: the wallet calls still pending at the upgrade become the kit's outgoing calls (issue 19), each
under the key and with the request the service made it with before — a batch's payments in id order, a transfer
planned alone under its own key — so a call that reached the wallet unanswered is resent identically (T-6.3)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from platform_kit.migrations import alembic_config
from platform_kit.outgoing_calls import CallStatus
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from totalizator.adapters import transfers

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
NOW = datetime(2030, 6, 1, tzinfo=UTC)
DRAW = "2030-23"


def _transfer(n: int, kind: str, status: str, batch_no: int | None, player: str | None = None) -> dict[str, object]:
    return {
        "id": n,
        "draw_id": DRAW,
        "phase": 1 if player else 2,
        "kind": kind,
        "currency": "USD",
        "amount": 100 * n,
        "player_id": player,
        "coupon_id": f"C{n}" if player else None,
        "idempotency_key": f"totalizator:{DRAW}:{kind}:{n}",
        "batch_no": batch_no,
        "status": status,
    }


async def pending_calls_recorded(url: str) -> None:
    config = alembic_config(url, MIGRATIONS)
    await asyncio.to_thread(command.upgrade, config, "0003")
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        draws = await connection.run_sync(lambda sync: sa.Table("draws", sa.MetaData(), autoload_with=sync))
        rows = await connection.run_sync(lambda sync: sa.Table("wallet_transfers", sa.MetaData(), autoload_with=sync))
        await connection.execute(
            draws.insert(),
            [
                {"draw_id": DRAW, "status": "settling", "close_at": NOW, "jackpot_carried_usd": "0"}
                | {"jackpot_topup_usd": "0", "version": 1, "created_at": NOW}
            ],
        )
        await connection.execute(
            rows.insert(),
            [
                _transfer(1, "payout", "done", 1, "p1"),
                _transfer(2, "payout", "done", 1, "p2"),
                _transfer(3, "payout", "pending", 2, "p3"),
                _transfer(4, "payout", "pending", 2, "p1"),
                _transfer(5, "refund", "pending", None, "p2"),
                _transfer(6, "organizer_share", "pending", None),
            ],
        )
    await asyncio.to_thread(command.upgrade, config, "head")
    async with AsyncSession(engine) as session:
        calls = await transfers.CALLS.where(session)
    await engine.dispose()
    assert [(c.key, c.operation, c.group, c.status, c.request.path, c.request.body) for c in calls] == [
        (
            f"totalizator:{DRAW}:payout:batch:2",
            "payout",
            DRAW,
            CallStatus.PENDING,
            f"/internal/v1/draws/{DRAW}/payouts",
            {"currency": "USD", "payments": [{"player_id": "p3", "amount": 300}, {"player_id": "p1", "amount": 400}]},
        ),
        (
            f"totalizator:{DRAW}:refund:5",
            "refund",
            DRAW,
            CallStatus.PENDING,
            f"/internal/v1/draws/{DRAW}/refunds",
            {"currency": "USD", "payments": [{"player_id": "p2", "amount": 500}]},
        ),
        (
            f"totalizator:{DRAW}:organizer_share:6",
            "organizer_share",
            DRAW,
            CallStatus.PENDING,
            f"/internal/v1/draws/{DRAW}/organizer-transfers",
            {"kind": "organizer_share", "currency": "USD", "amount": 600},
        ),
    ]


async def test_pending_wallet_calls_become_outgoing_calls_with_their_keys_and_requests(sqlite_url: str) -> None:
    await pending_calls_recorded(sqlite_url)


@pytest.mark.postgres
async def test_pending_wallet_calls_become_outgoing_calls_on_postgresql(postgres_url: str) -> None:
    await pending_calls_recorded(postgres_url)
