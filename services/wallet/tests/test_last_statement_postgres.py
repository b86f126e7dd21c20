"""On PostgreSQL a command's answer and events ride with its balance UPDATE, as CTEs of one statement
(adapters/riders.py), and its accounts are locked by the operation's statement: they commit together, or
not at all when the balance change is refused."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select
from wallet.adapters.orm import idempotency_keys, metadata, operations
from wallet_test_client import running_wallet

pytestmark = pytest.mark.postgres
OUTBOX = metadata.tables["outbox"]


async def test_an_operation_commits_with_its_event_and_its_answer_and_a_refused_one_with_neither(
    postgres_url: str,
) -> None:
    async with running_wallet(postgres_url) as (app, api):
        await api.open_player("p1", "c1")
        assert (await api.deposit("c1", "p1", 1000)).status_code == 201
        paid = await api.buy_in("t1", "p1", 900, 100, key="paid")
        refused = await api.buy_in("t1", "p1", 900, 100, key="refused")  # 0 left: insufficient funds
        assert (paid.status_code, refused.status_code) == (201, 409)

        async with app.state.services.runtime.db.sessions() as session:
            rows = (await session.execute(select(OUTBOX.c.event_type, OUTBOX.c.envelope).order_by(OUTBOX.c.seq))).all()
            keys = await session.execute(select(idempotency_keys.c.key, idempotency_keys.c.response))
            answers = {key: response for key, response in keys}
            entries = await session.scalar(select(func.count()).where(operations.c.tournament_id == "t1"))
        posted = [json.loads(envelope)["payload"] for kind, envelope in rows if kind == "wallet.operation.posted"]
        assert [p["kind"] for p in posted] == ["deposit", "buy_in"]  # the refused buy-in wrote no event
        assert posted[1]["operation_id"] == paid.json()["operation_id"]
        assert entries == 1
        assert json.loads(answers["paid"]) == paid.json()
        assert json.loads(answers["refused"])["code"] == "insufficient_funds"
        assert await api.balance("p1") == 0
        assert (await api.reconciliation())["ok"]


async def test_a_hold_posted_writes_its_events_in_order_with_its_balances(postgres_url: str) -> None:
    async with running_wallet(postgres_url) as (app, api):
        await api.open_player("p1", "c1")
        assert (await api.deposit("c1", "p1", 1000)).status_code == 201
        body = {"player_id": "p1", "currency": "EUR", "amount": 600, "destination": {"kind": "draw_pool", "owner": "d"}}
        hold = (await api.command("/internal/v1/holds", body)).json()
        posted = await api.command(f"/internal/v1/holds/{hold['hold_id']}/post", {"amount": 400})
        assert posted.status_code == 200, posted.text

        async with app.state.services.runtime.db.sessions() as session:
            kinds = (await session.scalars(select(OUTBOX.c.event_type).order_by(OUTBOX.c.seq))).all()
        assert kinds[-3:] == ["wallet.hold.created", "wallet.operation.posted", "wallet.hold.posted"]
        account = await api.player_account("p1")
        assert (account["balance"], account["held"]) == (600, 0)
        assert (await api.reconciliation())["ok"]
