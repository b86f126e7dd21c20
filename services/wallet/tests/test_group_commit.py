"""The wallet's group commit (issue 14): deposits, withdrawals and paid entries run together, many in one transaction
(service/posting_batches.py, service/group_commit.py), each answered as it is alone — posted once, refused alone
without moving money, replayed under its key by either path — and what a batch cannot do as the single command
does (a deposit under a deposit limit, an entry that opens the player's account) is left to the single command. On
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from wallet.adapters.ledger import PostedOperation
from wallet.api.context import operation_body
from wallet.bootstrap import Services
from wallet.domain.idempotency import fingerprint
from wallet.domain.operations import OperationKind
from wallet.service.money import CashRequest, EntryRequest
from wallet.service.posting_batches import RUN_ALONE, KeyedPosting
from wallet_test_client import TOKEN, WalletApi


def cash(services: Services, kind: OperationKind, player: str, amount: int, key: str) -> KeyedPosting:
    """The posting the partner route makes of a deposit or withdrawal (api/partner.py)."""
    path = f"/v1/partner/players/{player}/{'deposits' if kind is OperationKind.DEPOSIT else 'withdrawals'}"
    body = {"currency": "EUR", "amount": amount, "reference": None}
    request = CashRequest(kind, "c1", player, "EUR", amount, None)
    return KeyedPosting(
        "partner:c1", key, fingerprint("POST", path, body), request, services.money.cash_operations, "c1", _body
    )


def entry(services: Services, tournament: str, player: str, key: str, *, acting: str | None = None) -> KeyedPosting:
    """The posting the entries route makes of a buy-in of 90 + 10 (api/internal.py)."""
    body = {"kind": "buy_in", "player_id": player, "currency": "EUR", "prize_part": 90, "fee": 10,
            "jackpot_contribution": 0}  # fmt: skip
    path = f"/v1/tournaments/{tournament}/entries"
    request = EntryRequest(OperationKind.BUY_IN, tournament, player, "EUR", 90, 10, 0, acting)
    return KeyedPosting(
        "internal", key, fingerprint("POST", path, body), request, services.money.entry_operations, acting, _body
    )


def _body(posted: PostedOperation) -> dict[str, Any]:
    return operation_body(posted)


async def funded(api: WalletApi, player: str, amount: int) -> None:
    await api.open_player(player, "c1")
    if amount:
        assert (await api.deposit("c1", player, amount)).status_code == 201


async def withdraw(api: WalletApi, player: str, amount: int, key: str) -> httpx.Response:
    body = {"currency": "EUR", "amount": amount}
    return await api.command(f"/internal/v1/partner/players/{player}/withdrawals", body, key=key, concessionaire="c1")


def replayed(response: httpx.Response) -> bool:
    return response.headers.get("idempotent-replayed") == "true"


async def test_a_batch_posts_each_command_once_and_answers_each_as_it_would_alone(
    wallet: tuple[FastAPI, WalletApi],
) -> None:
    app, api = wallet
    services: Services = app.state.services
    await funded(api, "p1", 1_000)
    await funded(api, "p2", 50)

    answers = await services.group_commit.batches.run(
        [
            cash(services, OperationKind.DEPOSIT, "p1", 100, "k1"),
            cash(services, OperationKind.WITHDRAWAL, "p2", 100, "k2"),  # p2 has 50
            cash(services, OperationKind.DEPOSIT, "p2", 30, "k3"),
            cash(services, OperationKind.WITHDRAWAL, "p2", 60, "k4"),  # covered by the 30 before it in the batch
            entry(services, "t1", "p1", "k5"),
            cash(services, OperationKind.DEPOSIT, "p1", 100, "k1"),  # k1 again: a retry
            cash(services, OperationKind.DEPOSIT, "p1", 999, "k1"),  # k1 for another request
            entry(services, "t1", "ghost", "k8"),  # a player the wallet does not know
        ]
    )

    assert not any(answer is RUN_ALONE for answer in answers)
    statuses = [(a.status, a.replayed) for a in answers]  # type: ignore[union-attr]
    assert statuses == [
        (201, False), (409, False), (201, False), (201, False), (201, False), (201, True), (409, False), (404, False)
    ]  # fmt: skip
    assert answers[1].body["code"] == "insufficient_funds"  # type: ignore[union-attr]
    assert answers[5].body == answers[0].body  # type: ignore[union-attr]
    assert answers[6].body["code"] == "idempotency_key_reused"  # type: ignore[union-attr]
    ghost = await api.buy_in("t1", "ghost", 90, 10)  # over HTTP under a new key: the same refusal
    assert answers[7].body == ghost.json()  # type: ignore[union-attr]
    assert (await api.balance("p1"), await api.balance("p2"), await api.escrow("t1")) == (1_000, 20, 90)

    # The same keys sent alone over HTTP get the batch's answers: the refusal too, though p2 now has the money.
    await api.deposit("c1", "p2", 1_000)
    again = await withdraw(api, "p2", 100, "k2")
    assert again.status_code == 409 and replayed(again) and again.json() == answers[1].body  # type: ignore[union-attr]
    buy_in = await api.buy_in("t1", "p1", 90, 10, key="k5")
    assert buy_in.status_code == 201 and replayed(buy_in) and buy_in.json() == answers[4].body  # type: ignore[union-attr]
    assert (await api.balance("p1"), await api.balance("p2"), await api.escrow("t1")) == (1_000, 1_020, 90)
    assert (await api.reconciliation())["ok"] is True


async def test_what_a_batch_cannot_do_as_the_single_command_does_it_leaves_alone(
    wallet: tuple[FastAPI, WalletApi],
) -> None:
    app, api = wallet
    services: Services = app.state.services
    await funded(api, "p1", 0)
    await funded(api, "p2", 0)
    limits = {"currency": "EUR", "changed_by": "player:p1", "day": 1_000}
    assert (await api.http.put("/internal/v1/players/p1/deposit-limits", json=limits, headers={"X-Internal-Token": TOKEN})).status_code == 200  # fmt: skip

    answers = await services.group_commit.batches.run(
        [
            cash(services, OperationKind.DEPOSIT, "p1", 600, "limited"),  # its window is summed alone, under lock
            entry(services, "t1", "p9", "opens", acting="c1"),  # p9 has no account: the entry opens it
            cash(services, OperationKind.DEPOSIT, "p2", 600, "plain"),
        ]
    )

    assert answers[:2] == [RUN_ALONE, RUN_ALONE]
    assert answers[2].status == 201  # type: ignore[union-attr]
    assert (await api.balance("p1"), await api.balance("p2")) == (0, 600)
    # Nothing of the two was written, their keys not claimed: sent again, they run as the single commands.
    assert (await api.deposit("c1", "p1", 600, key="limited")).status_code == 201
    over = await api.deposit("c1", "p1", 600)
    assert over.json()["code"] == "deposit_limit_exceeded"
    opened = await api.buy_in("t1", "p9", 90, 10, key="opens", concessionaire="c1")
    assert opened.status_code == 409 and opened.json()["code"] == "insufficient_funds"
    # As alone: the account opened with the entry went with its refusal.
    assert (await api.get("/internal/v1/players/p9/accounts")).json()["code"] == "unknown_account"
    assert (await api.reconciliation())["ok"] is True


async def test_concurrent_commands_through_the_group_commit_each_move_money_once(
    wallet: tuple[FastAPI, WalletApi],
) -> None:
    app, api = wallet
    registry = app.state.services.runtime.registry
    players = [f"p{n}" for n in range(6)]
    for player in players:
        await funded(api, player, 1_000)
    limits = {"currency": "EUR", "changed_by": "player:p0", "day": 10_000}
    assert (await api.http.put("/internal/v1/players/p0/deposit-limits", json=limits, headers={"X-Internal-Token": TOKEN})).status_code == 200  # fmt: skip
    batched_before = registry.get_sample_value("wallet_group_commit_batch_size_sum") or 0

    # Each player: 1,000 + 4 × 10 in, 4 × 300 + 4 × 100 asked out: some of it is refused, in whatever order it runs.
    plan = [(kind, player, n) for n in range(4) for player in players for kind in ("deposit", "withdrawal", "buy_in")]
    calls = {
        "deposit": lambda player, n: api.deposit("c1", player, 10, key=f"d-{player}-{n}"),
        "withdrawal": lambda player, n: withdraw(api, player, 300, f"w-{player}-{n}"),
        "buy_in": lambda player, n: api.buy_in("t1", player, 90, 10, key=f"e-{player}-{n}"),
    }
    answers = await asyncio.gather(*(calls[kind](player, n) for kind, player, n in plan))

    refused = [a for a in answers if a.status_code != 201]
    assert refused and {a.json()["code"] for a in refused} == {"insufficient_funds"}, [a.text for a in refused]
    moved = {player: 1_000 for player in players}
    for (kind, player, _), answer in zip(plan, answers, strict=True):
        if answer.status_code == 201:
            moved[player] += {"deposit": 10, "withdrawal": -300, "buy_in": -100}[kind]
    assert {player: await api.balance(player) for player in players} == moved
    paid = sum(1 for (kind, *_), a in zip(plan, answers, strict=True) if kind == "buy_in" and a.status_code == 201)
    assert await api.escrow("t1") == 90 * paid
    # Every command went through the group commit's queue (p0's deposits then ran alone).
    assert (registry.get_sample_value("wallet_group_commit_batch_size_sum") or 0) - batched_before == len(plan)
    for (kind, player, n), first in list(zip(plan, answers, strict=True))[:6]:
        again = await calls[kind](player, n)
        assert replayed(again) and (again.status_code, again.json()) == (first.status_code, first.json())
    assert (await api.reconciliation())["ok"] is True


async def test_a_batch_that_fails_whole_leaves_each_of_its_commands_alone(
    wallet: tuple[FastAPI, WalletApi], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, api = wallet
    services: Services = app.state.services
    await funded(api, "p1", 0)
    run = services.group_commit.batches.run
    failed = []

    async def lost_connection(postings: Any) -> Any:
        if not failed:
            failed.append(len(postings))
            raise ConnectionResetError("the database went away mid-batch")
        return await run(postings)

    monkeypatch.setattr(services.group_commit.batches, "run", lost_connection)
    answers = await asyncio.gather(*(api.deposit("c1", "p1", 10, key=f"k{n}") for n in range(5)))

    assert failed and [a.status_code for a in answers] == [201] * 5
    assert await api.balance("p1") == 50
    assert replayed(await api.deposit("c1", "p1", 10, key="k0"))
    assert await api.balance("p1") == 50


async def test_each_answer_of_a_batch_names_its_own_operation_between_single_commands(
    wallet: tuple[FastAPI, WalletApi],
) -> None:
    """A batch takes its operation ids before writing (adapters/ledger.reserve_operation_ids: on SQLite the ids
    after the highest, under the write lock; on PostgreSQL from the sequence). Between single commands, and with
    a refused command in the batch, each 201 names the operation whose transfer moved its amount."""
    app, api = wallet
    services: Services = app.state.services
    await funded(api, "p1", 1_000)
    before = (await api.deposit("c1", "p1", 1)).json()["operation_id"]

    answers = await services.group_commit.batches.run(
        [
            cash(services, OperationKind.DEPOSIT, "p1", 11, "d11"),
            cash(services, OperationKind.WITHDRAWAL, "p1", 10**9, "refused"),
            cash(services, OperationKind.DEPOSIT, "p1", 12, "d12"),
            cash(services, OperationKind.WITHDRAWAL, "p1", 13, "w13"),
        ]
    )
    after = (await api.deposit("c1", "p1", 2)).json()["operation_id"]

    posted = [a for a in answers if a.status == 201]  # type: ignore[union-attr]
    ids = [a.body["operation_id"] for a in posted]  # type: ignore[union-attr]
    assert before < ids[0] < ids[1] < ids[2] < after
    async with services.runtime.db.read_connection() as connection:
        rows = await connection.execute(
            text("SELECT operation_id, amount FROM transfers WHERE operation_id IN (:a, :b, :c)"),
            {"a": ids[0], "b": ids[1], "c": ids[2]},
        )
        assert sorted(rows.all()) == [(ids[0], 11), (ids[1], 12), (ids[2], 13)]
    assert [a.body["transfers"][0]["amount"] for a in posted] == [11, 12, 13]  # type: ignore[union-attr]
    assert (await api.balance("p1")) == 1_000 + 1 + 11 + 12 - 13 + 2
    assert (await api.reconciliation())["ok"] is True
