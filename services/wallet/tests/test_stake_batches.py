"""A draw's stakes in batches (issue 14): each stake of a batch is the stake sent alone with its key — posted once
into the draw's pool (T-1.1, T-2.4), refused alone, replayed under its key whichever way it is sent again — and the
ledger balances, on SQLite and PostgreSQL, with batches sent twice at once and overlapping."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
from platform_kit.outbox import OUTBOX_TABLE
from sqlalchemy import select
from wallet.adapters.orm import metadata, operations
from wallet_test_client import WalletApi, running_wallet

BATCH = "/internal/v1/draws/d1/stake-batches"
OUTBOX = metadata.tables[OUTBOX_TABLE]


def stake(key: str, player: str, amount: int, currency: str = "EUR") -> dict[str, Any]:
    return {"key": key, "player_id": player, "currency": currency, "amount": amount, "coupon_id": f"coupon-{key}"}


async def batch(api: WalletApi, *stakes: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    response = await api.command(BATCH, {"stakes": list(stakes)})
    assert response.status_code == 200, response.text
    answers = response.json()["answers"]
    assert [a["key"] for a in answers] == [s["key"] for s in stakes]
    return [(a["status"], a["body"]) for a in answers]


async def funded(api: WalletApi, player: str, amount: int) -> None:
    await api.open_player(player, "c1")
    assert (await api.deposit("c1", player, amount)).status_code == 201


async def pool(api: WalletApi) -> int:
    pools = (await api.get("/internal/v1/draws/d1")).json()["pools"]
    return sum(int(p["balance"]) for p in pools)


async def stakes_posted(app: Any) -> int:
    """Stake operations in the ledger, each with its `wallet.operation.posted` event, as a single stake has."""
    async with app.state.services.runtime.db.sessions() as session:
        posted = list(await session.scalars(select(operations.c.id).where(operations.c.kind == "stake")))
        envelopes = await session.scalars(
            select(OUTBOX.c.envelope).where(OUTBOX.c.event_type == "wallet.operation.posted")
        )
        events = [json.loads(envelope)["payload"] for envelope in envelopes]
    assert sorted(e["operation_id"] for e in events if e["kind"] == "stake") == sorted(posted)
    return len(posted)


async def test_t1_1_a_batch_posts_each_stake_into_the_pool_and_refuses_one_alone(
    wallet: tuple[Any, WalletApi],
) -> None:
    app, api = wallet
    await funded(api, "p1", 1_000)
    await funded(api, "p2", 50)
    stakes = [
        stake("a", "p1", 100),
        stake("b", "p2", 100),  # p2 has 50
        stake("c", "p1", 200),
        stake("d", "p1", 100, "USD"),  # p1 has no USD account
        stake("e", "p2", 50),
    ]
    answers = await batch(api, *stakes)
    assert [status for status, _ in answers] == [201, 409, 201, 404, 201]
    assert answers[1][1]["code"] == "insufficient_funds" and answers[3][1]["code"] == "unknown_account"
    assert (answers[1][1]["available"], answers[1][1]["needed"]) == (50, 100)
    assert answers[0][1]["kind"] == "stake" and answers[0][1]["reference"] == "coupon-a"
    assert (await api.balance("p1"), await api.balance("p2"), await pool(api)) == (700, 0, 350)
    assert await stakes_posted(app) == 3
    assert (await api.reconciliation())["ok"] is True

    # The batch again: every stake's first answer, refusals included (the money arrived since), nothing moves.
    assert (await api.deposit("c1", "p2", 1_000)).status_code == 201
    assert await batch(api, *stakes) == answers
    assert (await api.balance("p1"), await api.balance("p2"), await pool(api)) == (700, 1_000, 350)
    assert await stakes_posted(app) == 3


async def test_t2_4_a_stake_is_the_same_request_alone_or_in_a_batch_and_posts_once(
    wallet: tuple[Any, WalletApi],
) -> None:
    app, api = wallet
    await funded(api, "p1", 1_000)
    alone = await api.command("/internal/v1/draws/d1/stakes", stake("k1", "p1", 100) | {"key": None}, key="k1")
    assert alone.status_code == 422  # the key goes in the header when a stake is sent alone
    body = {k: v for k, v in stake("k1", "p1", 100).items() if k != "key"}
    alone = await api.command("/internal/v1/draws/d1/stakes", body, key="k1")
    assert alone.status_code == 201
    answers = await batch(api, stake("k1", "p1", 100), stake("k2", "p1", 100), stake("k2", "p1", 100))
    assert answers[0] == (201, alone.json())  # sent alone first: the batch replays it
    assert answers[1] == answers[2] and answers[1][0] == 201  # twice in one batch: posted once
    again = await api.command(
        "/internal/v1/draws/d1/stakes", {k: v for k, v in stake("k2", "p1", 100).items() if k != "key"}, key="k2"
    )
    assert again.status_code == 201 and again.json() == answers[1][1]
    assert again.headers["idempotent-replayed"] == "true"
    reused = await batch(api, stake("k1", "p1", 999), stake("k3", "p1", 100), stake("k3", "p1", 5))
    assert [(status, body.get("code")) for status, body in reused] == [
        (409, "idempotency_key_reused"),
        (201, None),
        (409, "idempotency_key_reused"),
    ]
    assert await api.balance("p1") == 700 and await pool(api) == 300 and await stakes_posted(app) == 3
    assert (await api.reconciliation())["ok"] is True


async def test_t1_1_stakes_of_one_player_are_covered_in_the_batch_order(wallet: tuple[Any, WalletApi]) -> None:
    _, api = wallet
    await funded(api, "p1", 250)
    answers = await batch(api, *(stake(f"s{n}", "p1", 100) for n in range(3)), stake("small", "p1", 50))
    assert [status for status, _ in answers] == [201, 201, 409, 201]
    assert (answers[2][1]["available"], answers[2][1]["needed"]) == (50, 100)
    assert await api.balance("p1") == 0 and await pool(api) == 250


async def test_a_batch_is_checked_whole_before_anything_is_done(wallet: tuple[Any, WalletApi]) -> None:
    _, api = wallet
    response = await api.command(BATCH, {"stakes": []})
    assert response.status_code == 422
    response = await api.command(BATCH, {"stakes": [stake("a", "p1", 100) | {"amount": 1.5}]})
    assert response.status_code == 422


@pytest.mark.postgres
async def test_t1_1_batches_sent_twice_at_once_and_overlapping_post_each_key_once(postgres_url: str) -> None:
    async with running_wallet(postgres_url) as (app, api):
        players = [f"p{n}" for n in range(8)]
        for player in players:
            await funded(api, player, 1_000)
        stakes = [stake(f"k{n}", players[n % len(players)], 10 + n % 7) for n in range(120)]
        rng = random.Random(5)
        batches = []
        for _ in range(12):  # the whole batch, halves, shuffled subsets: overlapping, in different orders
            subset = rng.sample(stakes, rng.randint(10, len(stakes)))
            batches.append(subset)
        batches += [stakes, stakes, stakes[::-1]]

        async def send(chosen: list[dict[str, Any]]) -> httpx.Response:
            return await api.command(BATCH, {"stakes": chosen})

        singles = [
            api.command("/internal/v1/draws/d1/stakes", {k: v for k, v in s.items() if k != "key"}, key=s["key"])
            for s in stakes[:20]
        ]
        responses = await asyncio.wait_for(asyncio.gather(*(send(b) for b in batches), *singles), timeout=120)
        operation_of: dict[str, int] = {}
        for chosen, response in zip(batches, responses, strict=False):
            assert response.status_code == 200, response.text
            for sent, answer in zip(chosen, response.json()["answers"], strict=True):
                assert answer["status"] == 201, answer
                assert (
                    operation_of.setdefault(sent["key"], answer["body"]["operation_id"])
                    == answer["body"]["operation_id"]
                )
        for sent, response in zip(stakes[:20], responses[len(batches) :], strict=True):
            assert response.status_code == 201 and response.json()["operation_id"] == operation_of[sent["key"]]
        assert await stakes_posted(app) == len(stakes)
        assert await pool(api) == sum(s["amount"] for s in stakes)
        spent = {p: sum(s["amount"] for s in stakes if s["player_id"] == p) for p in players}
        assert {p: await api.balance(p) for p in players} == {p: 1_000 - spent[p] for p in players}
        assert (await api.reconciliation())["ok"] is True
