"""Concurrent requests against the real PostgreSQL: no money is spent twice, no command runs twice."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select
from wallet.adapters.orm import operations
from wallet_test_client import running_wallet

pytestmark = pytest.mark.postgres

PRICE_PRIZE, PRICE_FEE = 900, 100


async def test_50_concurrent_buy_ins_against_a_balance_for_10_exactly_10_succeed(postgres_url: str) -> None:
    async with running_wallet(postgres_url) as (app, api):
        await api.open_player("p1", "c1")
        await api.deposit("c1", "p1", 10 * (PRICE_PRIZE + PRICE_FEE))

        responses = await asyncio.gather(
            *(api.buy_in(f"t{n % 5}", "p1", PRICE_PRIZE, PRICE_FEE, key=f"buy-{n}") for n in range(50))
        )

        statuses = sorted(r.status_code for r in responses)
        assert statuses == [201] * 10 + [409] * 40
        assert {r.json()["code"] for r in responses if r.status_code == 409} == {"insufficient_funds"}
        assert await api.balance("p1") == 0
        assert sum([await api.escrow(f"t{n}") for n in range(5)]) == 10 * PRICE_PRIZE
        assert (await api.reconciliation())["ok"] is True
        async with app.state.services.runtime.db.transaction() as session:
            assert await session.scalar(select(func.count()).where(operations.c.kind == "buy_in")) == 10


async def test_concurrent_duplicates_of_one_key_execute_once_and_get_the_same_answer(postgres_url: str) -> None:
    async with running_wallet(postgres_url) as (app, api):
        await api.open_player("p1", "c1")
        await api.deposit("c1", "p1", 100_000)

        responses = await asyncio.gather(*(api.buy_in("t1", "p1", 900, 100, key="once") for _ in range(20)))

        assert {r.status_code for r in responses} == {201}
        assert len({r.text for r in responses}) == 1
        assert sum(r.headers.get("idempotent-replayed") == "true" for r in responses) == 19
        assert await api.balance("p1") == 99_000
        async with app.state.services.runtime.db.transaction() as session:
            assert await session.scalar(select(func.count()).where(operations.c.kind == "buy_in")) == 1


async def test_opposite_transfers_between_two_accounts_do_not_deadlock(postgres_url: str) -> None:
    """Buy-ins (player → escrow) and payouts (escrow → player) of the same accounts, interleaved: every
    transaction locks accounts in one global order, so none waits on another in a cycle."""
    async with running_wallet(postgres_url) as (_, api):
        for player in ("p1", "p2"):
            await api.open_player(player, "c1")
            await api.deposit("c1", player, 10_000)
        await api.buy_in("t1", "p1", 5000, 0)
        payout = {"currency": "EUR", "payouts": [{"player_id": "p2", "amount": 10}, {"player_id": "p1", "amount": 10}]}
        calls = [api.buy_in("t1", "p2", 10, 0) for _ in range(15)]
        calls += [api.command("/internal/v1/tournaments/t1/payouts", payout) for _ in range(15)]
        responses = await asyncio.wait_for(asyncio.gather(*calls), timeout=60)
        assert {r.status_code for r in responses} == {201}
        assert await api.escrow("t1") == 5000 + 15 * 10 - 15 * 20
        assert (await api.reconciliation())["ok"] is True
