"""Bet intake under load (issue 14): coupons arriving together share their transactions (group commit) and keep
every rule of a coupon placed alone (T-2.4, T-2.5, idempotency); more coupons than a process takes at once are
refused with 503 `intake_busy` and Retry-After, never left hanging, and a retry with the same key places them."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest
from platform_kit.testing import eventually
from sqlalchemy.exc import OperationalError
from test_api_coupons import LosesAnswers
from totalizator.adapters import coupons as coupon_store
from totalizator.service.wallet import Stake, WalletPort, WalletRefused
from totalizator_harness import Platform, PlatformFactory, picks


async def test_t2_4_coupons_placed_together_are_each_charged_once_and_refused_alone(platform: Platform) -> None:
    await platform.open_draw()
    players = [f"p{n}" for n in range(6)]
    await asyncio.gather(*(platform.fund(player, 1_000) for player in players))
    coupons = [platform.coupon(player, picks("1:0"), 100, key=f"k-{player}") for player in players]
    coupons += [
        platform.coupon("p0", picks("1:0"), 100, key="k-p0"),  # the same request again: answered once
        platform.coupon("p1", picks("2:0"), 100, key="k-p1"),  # the key again with another coupon
        platform.coupon("p2", picks("1:0"), 5, key="k-small"),  # below the minimum stake
        platform.coupon("p3", picks("1:0"), 5_000, key="k-broke"),  # the wallet refuses it
    ]
    answers = await asyncio.gather(*coupons)
    codes = [(r.status_code, r.json().get("code")) for r in answers]
    # Concurrent requests with one key may reach the service in either order: whichever comes first is placed.
    assert Counter([codes[0], codes[6]]) == Counter([(201, None), (200, None)]), codes
    assert Counter([codes[1], codes[7]]) == Counter([(201, None), (409, "idempotency_key_reused")]), codes
    assert codes[2:6] == [(201, None)] * 4 and codes[8:] == [(422, "below_minimum_stake"), (409, "insufficient_funds")]
    assert answers[0].json()["coupon_id"] == answers[6].json()["coupon_id"]  # the repeat got the first's coupon
    assert [await platform.balance(player) for player in players] == [900] * 6
    assert await platform.pools() == {"USD": 600}
    mine = (await platform.staff("GET", "/players/p3/coupons")).json()
    assert sorted(c["status"] for c in mine) == ["accepted", "refused"]
    assert await platform.reconciled()


class HeldWallet:
    """Takes every stake only once released: coupons stay in flight as long as the test wants."""

    def __init__(self, wallet: WalletPort) -> None:
        self.wallet = wallet
        self.release = asyncio.Event()
        self.waiting = 0

    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        self.waiting += len(stakes)
        await self.release.wait()
        return await self.wallet.stakes(draw_id, stakes)

    async def until_holding(self, count: int) -> None:
        async def holding() -> bool:
            return self.waiting == count

        await eventually(holding, interval=0.01)


@asynccontextmanager
async def held_stakes(start_platform: PlatformFactory, **options: Any) -> AsyncIterator[tuple[Platform, HeldWallet]]:
    """A platform, its draw open and p1 funded, whose wallet holds every stake until released."""
    held: list[HeldWallet] = []

    def hold(wallet: WalletPort) -> HeldWallet:
        held.append(HeldWallet(wallet))
        return held[0]

    async with start_platform(wrap_wallet=hold, **options) as platform:
        await platform.open_draw()
        await platform.fund("p1", 1_000)
        yield platform, held[0]


async def test_more_coupons_than_a_process_takes_at_once_are_refused_with_retry_after_and_placed_on_retry(
    start_platform: PlatformFactory,
) -> None:
    async with held_stakes(start_platform, intake_in_flight=2) as (platform, wallet):
        in_flight = [asyncio.create_task(platform.coupon("p1", picks("1:0"), 100, key=f"k-{n}")) for n in (1, 2)]
        await wallet.until_holding(2)
        busy = await platform.coupon("p1", picks("1:0"), 100, key="k-3")
        assert busy.status_code == 503 and busy.json()["code"] == "intake_busy"
        assert busy.headers["Retry-After"] == "1"
        wallet.release.set()
        assert [r.status_code for r in await asyncio.gather(*in_flight)] == [201, 201]
        retried = await platform.coupon("p1", picks("1:0"), 100, key="k-3")
        assert retried.status_code == 201 and retried.json()["status"] == "accepted"
        assert await platform.balance("p1") == 700


async def test_a_stake_taken_but_not_recorded_answers_payment_pending_and_a_retry_learns_it_once(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    await platform.open_draw()
    await platform.fund("p1", 1_000)
    resolve = coupon_store.resolve
    failures = [OperationalError("UPDATE coupons", {}, ConnectionError("database gone"))]

    async def fails_once(*args: Any, **kwargs: Any) -> None:
        if failures:
            raise failures.pop()
        await resolve(*args, **kwargs)

    monkeypatch.setattr(coupon_store, "resolve", fails_once)
    lost = await platform.coupon("p1", picks("1:0"), 100, key="k-unrecorded")
    assert lost.status_code == 503 and lost.json()["code"] == "payment_pending"  # not a bare 500
    assert lost.headers["Retry-After"] == "1" and lost.json()["coupon_id"]
    retried = await platform.coupon("p1", picks("1:0"), 100, key="k-unrecorded")
    assert retried.status_code == 200 and retried.json()["status"] == "accepted"
    assert retried.json()["coupon_id"] == lost.json()["coupon_id"]
    assert await platform.balance("p1") == 900 and await platform.pools() == {"USD": 100}


async def test_stakes_wait_their_turn_at_the_wallet_and_one_kept_waiting_too_long_is_pending_until_retried(
    start_platform: PlatformFactory,
) -> None:
    async with held_stakes(start_platform, stake_concurrency=1, wallet_timeout_seconds=0.3) as (platform, wallet):
        first = asyncio.create_task(platform.coupon("p1", picks("1:0"), 100, key="k-first"))
        await wallet.until_holding(1)
        second = await platform.coupon("p1", picks("2:0"), 100, key="k-second")
        assert second.status_code == 503 and second.json()["code"] == "payment_pending"
        assert wallet.waiting == 1  # it never reached the wallet: one stake at a time
        wallet.release.set()
        assert (await first).status_code == 201
        retried = await platform.coupon("p1", picks("2:0"), 100, key="k-second")
        assert retried.status_code == 200 and retried.json()["coupon_id"] == second.json()["coupon_id"]
        assert retried.json()["status"] == "accepted" and await platform.balance("p1") == 800


async def test_the_clock_asks_again_about_many_unconfirmed_stakes_at_once_and_each_is_charged_once(
    start_platform: PlatformFactory,
) -> None:
    players = [f"p{n}" for n in range(12)]
    async with start_platform(wrap_wallet=lambda wallet: LosesAnswers(wallet, len(players)), stake_concurrency=4) as (
        platform
    ):
        await platform.open_draw()
        await asyncio.gather(*(platform.fund(player, 1_000) for player in players))
        lost = await asyncio.gather(*(platform.coupon(p, picks("1:0"), 100, key=f"k-{p}") for p in players))
        assert {(r.status_code, r.json()["code"]) for r in lost} == {(503, "payment_pending")}
        assert await platform.services.intake.retry_pending() == len(players)
        assert await platform.services.intake.retry_pending() == 0  # none left pending
        assert [await platform.balance(player) for player in players] == [900] * len(players)
        assert await platform.pools() == {"USD": 100 * len(players)}
        again = await asyncio.gather(*(platform.coupon(p, picks("1:0"), 100, key=f"k-{p}") for p in players))
        assert {(r.status_code, r.json()["status"]) for r in again} == {(200, "accepted")}


class CountsCalls(LosesAnswers):
    """Counts the wallet's stake calls and the stakes each carried (and loses no answer)."""

    def __init__(self, wallet: WalletPort) -> None:
        super().__init__(wallet, 0)
        self.calls: list[int] = []

    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        self.calls.append(len(stakes))
        return await super().stakes(draw_id, stakes)


async def test_t2_4_stakes_of_coupons_arriving_together_go_to_the_wallet_in_one_call_each_charged_once(
    start_platform: PlatformFactory,
) -> None:
    counted: list[CountsCalls] = []
    holding: list[HeldWallet] = []

    def count_then_hold(wallet: WalletPort) -> HeldWallet:
        counted.append(CountsCalls(wallet))
        holding.append(HeldWallet(counted[0]))  # type: ignore[arg-type]
        return holding[0]

    async with start_platform(wrap_wallet=count_then_hold, stake_concurrency=1) as platform:
        held = holding[0]
        await platform.open_draw()
        await platform.fund("p1", 1_000)
        players = [f"p{n}" for n in range(2, 12)]
        await asyncio.gather(*(platform.fund(player, 150) for player in players))
        first = asyncio.create_task(platform.coupon("p1", picks("1:0"), 100, key="k-first"))
        await held.until_holding(1)  # the only call in flight: the next coupons' stakes gather meanwhile
        rush = [platform.coupon(p, picks("1:0"), 100, key=f"k-{p}") for p in players]
        rush += [platform.coupon("p2", picks("2:0"), 100, key="k-p2-again")]  # p2 has 50 left after its first
        held.release.set()
        answers = await asyncio.gather(first, *rush)
        assert [r.status_code for r in answers] == [201] * 11 + [409]
        assert answers[-1].json()["code"] == "insufficient_funds"
        assert counted[0].calls[0] == 1 and sum(counted[0].calls) == 12 and len(counted[0].calls) < 12
        assert await platform.pools() == {"USD": 1_100}
        assert await platform.reconciled()


async def test_a_stake_the_wallet_would_refuse_whole_in_a_batch_is_refused_alone(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 1_000)
    wallet = platform.services.context.wallet
    draw = "2030-23"
    stakes = [Stake("p1", "USD", 100, "c-1", "k-1"), Stake("p1", "USD", 10**16, "c-2", "k-2")]
    first, second = await wallet.stakes(draw, stakes)
    assert isinstance(first, int)
    assert isinstance(second, WalletRefused) and second.status == 422
    assert await wallet.stakes(draw, stakes[:1]) == [first]  # the same key: the same operation
    assert await platform.balance("p1") == 900
