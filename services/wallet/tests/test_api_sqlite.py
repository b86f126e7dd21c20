"""The wallet on SQLite (standalone mode): the main flows through the REST API."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from wallet_test_client import running_wallet


async def test_p8_1_buy_in_flow_on_sqlite_splits_prize_and_fee_and_replays(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url) as (_, api):
        await api.open_player("p1", "c1")
        assert (await api.deposit("c1", "p1", 10_000)).status_code == 201

        first = await api.buy_in("t1", "p1", 900, 100, key="buy-1")
        again = await api.buy_in("t1", "p1", 900, 100, key="buy-1")
        other = await api.buy_in("t1", "p1", 800, 100, key="buy-1")

        assert first.status_code == 201, first.text
        assert again.status_code == 201 and again.json() == first.json()
        assert again.headers["idempotent-replayed"] == "true"
        assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
        assert {(t["credit"]["kind"], t["amount"]) for t in first.json()["transfers"]} == {
            ("tournament_escrow", 900),
            ("margin", 100),
        }
        assert await api.balance("p1") == 9_000
        assert await api.escrow("t1") == 900
        tournament = (await api.get("/internal/v1/tournaments/t1")).json()
        assert tournament["tax_base"] == [{"concessionaire_id": "c1", "currency": "EUR", "amount": 1000, "entries": 1}]

        statement = (await api.get("/internal/v1/partner/players/p1/statement", concessionaire="c1")).json()
        assert [line["amount"] for line in statement["items"]] == [-100, -900, 10_000]

        report = await api.reconciliation()
        assert report["ok"] is True
        assert report["currencies"][0]["sum_of_balances"] == 0


async def test_holds_and_refusals_on_sqlite(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url) as (_, api):
        await api.open_player("p1", "c1")
        await api.deposit("c1", "p1", 500)
        hold = await api.command(
            "/internal/v1/holds",
            {"player_id": "p1", "currency": "EUR", "amount": 400, "destination": {"kind": "draw_pool", "owner": "d1"}},
        )
        assert hold.status_code == 201, hold.text
        broke = await api.command("/internal/v1/draws/d1/stakes", {"player_id": "p1", "currency": "EUR", "amount": 200})
        assert broke.status_code == 409 and broke.json()["code"] == "insufficient_funds"
        posted = await api.command(f"/internal/v1/holds/{hold.json()['hold_id']}/post", {"amount": 300})
        assert posted.status_code == 200 and posted.json()["status"] == "posted"
        account = await api.player_account("p1")
        assert (account["balance"], account["held"]) == (200, 0)
        assert (await api.reconciliation())["ok"] is True


async def test_p9_3_bonus_prizes_on_sqlite_are_bonus_money_paid_once(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url) as (_, api):
        await api.open_player("p1", "c1")
        await api.open_player("p2", "c1")
        first = await api.bonus_prizes("free", "c1", {"p1": 300, "p2": 100}, key="bonus-1")
        again = await api.bonus_prizes("free", "c1", {"p1": 300, "p2": 100}, key="bonus-1")
        other = await api.bonus_prizes("free", "c1", {"p1": 300}, key="bonus-1")

        assert first.status_code == 201, first.text
        assert again.status_code == 201 and again.json() == first.json()
        assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
        assert (await api.balance("p1", kind="bonus"), await api.balance("p2", kind="bonus")) == (300, 100)
        withdraw = {"currency": "EUR", "amount": 1}
        refused = await api.command("/internal/v1/partner/players/p1/withdrawals", withdraw, concessionaire="c1")
        assert refused.status_code == 409 and refused.json()["code"] == "insufficient_funds"
        assert await api.balance("p1") == 0
        own = (await api.get("/internal/v1/partner/accounts", concessionaire="c1")).json()["accounts"]
        # The refused withdrawal's batch (service/group_commit.py) commits the concessionaire's cash account it
        # opened on first use, empty: every other account of the concessionaire holds nothing.
        assert {a["kind"]: a["balance"] for a in own if a["balance"]} == {"sponsorship": -400}
        report = await api.reconciliation()
        assert report["ok"] is True and report["currencies"][0]["sum_of_balances"] == 0


async def test_a_concessionaires_reconciliation_names_only_its_own_accounts(sqlite_url: str) -> None:
    """An operator's view: the whole ledger's sum of balances (the figure that must read zero), and drift among
    its own concessionaire's accounts and its players' only; another concessionaire's broken account is not
    named to it."""
    async with running_wallet(sqlite_url) as (app, api):
        await api.open_player("p1", "c1")
        await api.open_player("p2", "c2")
        await api.deposit("c1", "p1", 1_000)
        await api.deposit("c2", "p2", 2_000)
        async with app.state.services.runtime.db.transaction() as session:  # money appears from nowhere, in c2
            await session.execute(text("UPDATE accounts SET balance = balance + 1 WHERE owner = 'p2'"))

        async def scoped(concessionaire: str) -> Any:
            answer = await api.get("/internal/v1/reconciliation", concessionaire_id=concessionaire)
            assert answer.status_code == 200, answer.text
            return answer.json()

        (c1,) = (await scoped("c1"))["currencies"]
        (c2,) = (await scoped("c2"))["currencies"]
        assert (c1["sum_of_balances"], c1["drifts"]) == (1, [])  # the ledger is off by 1; nothing of c1's drifted
        assert c1["accounts"] == 2  # p1's account and c1's cash account
        assert [d["account"] for d in c2["drifts"]] == ["player:p2:EUR"]
        assert (await api.reconciliation())["ok"] is False
