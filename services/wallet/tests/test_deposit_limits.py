"""Deposit limits a player sets on themself (issue 17, docs/player-protection.md), through the wallet's API:
partner deposits past a limit are refused with 422 `deposit_limit_exceeded` and the remaining amount; a lower
limit applies at once, a higher one only after the cooling-off; a replayed deposit is not counted twice."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from platform_kit.clock import FrozenClock
from wallet_test_client import TOKEN, WalletApi, running_wallet

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
LIMITS = "/internal/v1/players/p1/deposit-limits"


async def set_limits(api: WalletApi, **windows: int | None) -> httpx.Response:
    body: dict[str, Any] = {"currency": "EUR", "changed_by": "player:p1", **windows}
    return await api.http.put(LIMITS, json=body, headers={"X-Internal-Token": TOKEN})


async def window(api: WalletApi, period: str) -> dict[str, Any]:
    [eur] = (await api.get(LIMITS)).json()["limits"]
    [found] = [w for w in eur["windows"] if w["period"] == period]
    return found


async def test_a_partner_deposit_over_the_daily_limit_is_refused_with_the_remaining_amount(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url, clock=FrozenClock(START)) as (_, api):
        await api.open_player("p1", "c1")
        assert (await set_limits(api, day=10_000)).status_code == 200
        assert (await api.deposit("c1", "p1", 7_000)).status_code == 201

        refused = await api.deposit("c1", "p1", 3_001)

        assert refused.status_code == 422
        problem = refused.json()
        assert (problem["code"], problem["period"], problem["limit"], problem["remaining"]) == (
            "deposit_limit_exceeded",
            "day",
            10_000,
            3_000,
        )
        assert (await api.deposit("c1", "p1", 3_000)).status_code == 201
        assert await api.balance("p1") == 10_000


async def test_the_windows_roll_and_the_tightest_one_speaks(sqlite_url: str) -> None:
    clock = FrozenClock(START)
    async with running_wallet(sqlite_url, clock=clock) as (_, api):
        await api.open_player("p1", "c1")
        await set_limits(api, day=5_000, week=8_000)
        assert (await api.deposit("c1", "p1", 5_000)).status_code == 201
        clock.advance(timedelta(days=1))  # the day's window is empty again, the week's is not
        refused = await api.deposit("c1", "p1", 3_500)
        assert (refused.json()["period"], refused.json()["remaining"]) == ("week", 3_000)
        clock.advance(timedelta(days=6))
        assert (await api.deposit("c1", "p1", 5_000)).status_code == 201


async def test_a_replayed_deposit_is_not_counted_twice(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url, clock=FrozenClock(START)) as (_, api):
        await api.open_player("p1", "c1")
        await set_limits(api, day=10_000)
        first = await api.deposit("c1", "p1", 6_000, key="cashier-1")
        replay = await api.deposit("c1", "p1", 6_000, key="cashier-1")

        assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
        assert replay.json() == first.json()
        assert (await window(api, "day"))["remaining"] == 4_000
        assert (await api.deposit("c1", "p1", 4_000)).status_code == 201


async def test_lowering_a_limit_takes_effect_at_once(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url, clock=FrozenClock(START)) as (_, api):
        await api.open_player("p1", "c1")
        await set_limits(api, month=50_000)
        await api.deposit("c1", "p1", 20_000)

        await set_limits(api, month=25_000)

        month = await window(api, "month")
        assert (month["amount"], month["pending_amount"], month["remaining"]) == (25_000, None, 5_000)
        assert (await api.deposit("c1", "p1", 5_001)).json()["code"] == "deposit_limit_exceeded"


async def test_raising_or_removing_a_limit_waits_for_the_cooling_off(sqlite_url: str) -> None:
    clock = FrozenClock(START)
    async with running_wallet(sqlite_url, clock=clock) as (_, api):
        await api.open_player("p1", "c1")
        await set_limits(api, day=1_000, week=5_000)
        await set_limits(api, day=9_000, week=None)

        day = await window(api, "day")
        assert (day["amount"], day["pending_amount"]) == (1_000, 9_000)
        assert day["pending_from"] == (START + timedelta(hours=24)).isoformat().replace("+00:00", "Z")
        assert (await api.deposit("c1", "p1", 1_001)).status_code == 422

        clock.advance(timedelta(hours=23, minutes=59))
        assert (await api.deposit("c1", "p1", 1_001)).status_code == 422
        clock.advance(timedelta(minutes=1))
        assert (await api.deposit("c1", "p1", 8_000)).status_code == 201
        assert (await window(api, "week"))["amount"] is None


async def test_every_change_is_in_the_history_with_who_and_when_it_applies(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url, clock=FrozenClock(START)) as (_, api):
        await set_limits(api, day=1_000)
        await set_limits(api, day=1_000)  # the same again: no change, no row
        await set_limits(api, day=2_000)

        history = (await api.get(f"{LIMITS}/history")).json()["changes"]

        assert [(c["previous_amount"], c["requested_amount"], c["changed_by"]) for c in history] == [
            (1_000, 2_000, "player:p1"),
            (None, 1_000, "player:p1"),
        ]
        assert history[0]["effective_from"] > history[0]["changed_at"]
        assert history[1]["effective_from"] == history[1]["changed_at"]


async def test_the_net_result_of_play_leaves_deposits_out(sqlite_url: str) -> None:
    async with running_wallet(sqlite_url, clock=FrozenClock(START)) as (_, api):
        await api.open_player("p1", "c1")
        await api.deposit("c1", "p1", 10_000)
        await api.buy_in("t1", "p1", 900, 100)

        answer = (await api.get("/internal/v1/players/p1/net-result", since=START.isoformat())).json()

        assert answer["net"] == {"EUR": -1_000}


@pytest.mark.postgres
async def test_two_concurrent_deposits_cannot_both_pass_one_limit(postgres_url: str) -> None:
    async with running_wallet(postgres_url) as (_, api):
        await api.open_player("p1", "c1")
        await set_limits(api, day=10_000)

        answers = await asyncio.gather(*(api.deposit("c1", "p1", 6_000, key=f"d{n}") for n in range(6)))

        assert sorted(a.status_code for a in answers) == [201] + [422] * 5
        assert await api.balance("p1") == 6_000
