"""Coupon payouts and refunds in batches, one wallet call each, and crash-safe: every coupon paid exactly once
(T-6.3). The calls go through the real wallet client and the real wallet app; a transport in between records
them and loses an answer on demand."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from totalizator.adapters import transfers
from totalizator.adapters.transfers import PlannedTransfer
from totalizator.service import transfers as transfer_service
from totalizator.service.staff import Staff, StaffRole
from totalizator.service.transfers import in_batches, payment
from totalizator.service.wallet import PaymentKind
from totalizator_harness import Platform, PlatformFactory, another_instance, picks

DRAW = "2030-23"
RIGHT, WRONG = "1:0", "0:0"
PLAYERS = ("w1", "w2", "w3", "w4", "w5")
DEPOSIT = 10_000
# Per player: two winning coupons (8 and 3 right) and a losing one; ten payouts in all.
STAKES = [(picks(*[RIGHT] * 8), 100), (picks(*[RIGHT] * 3), 200), (picks(WRONG), 300)]


@dataclass(frozen=True)
class Call:
    path: str
    key: str
    body: dict[str, Any]
    status: int
    answer: dict[str, Any]
    replayed: bool

    @property
    def pays(self) -> bool:
        return self.path.endswith(("/payouts", "/refunds"))


class ProcessStopped(Exception):
    """The service stops between the wallet's answer and recording it."""


def answer_lost(request: httpx.Request) -> Exception:
    return httpx.ReadTimeout("answer lost", request=request)


def process_stopped(request: httpx.Request) -> Exception:
    return ProcessStopped(f"stopped after {request.url.path}")


@dataclass
class WalletLine(httpx.AsyncBaseTransport):
    """Between the wallet client and the wallet app: records every call the wallet answered, and can fail the
    `fail_payment_call`-th payment call with `fault` once the wallet has made it."""

    fail_payment_call: int | None = None
    fault: Callable[[httpx.Request], Exception] | None = None
    calls: list[Call] = field(default_factory=list)
    inner: httpx.AsyncBaseTransport | None = None

    def around(self, transport: httpx.AsyncBaseTransport) -> WalletLine:
        self.inner = transport
        return self

    @property
    def payment_calls(self) -> list[Call]:
        return [call for call in self.calls if call.pays]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert self.inner is not None
        response = await self.inner.handle_async_request(request)
        content = await response.aread()
        call = Call(
            request.url.path,
            request.headers.get("Idempotency-Key", ""),  # none on a stake batch: each stake has its own
            json.loads(request.content),
            response.status_code,
            json.loads(content),
            response.headers.get("Idempotent-Replayed") == "true",
        )
        self.calls.append(call)
        if self.fault is not None and call.pays and len(self.payment_calls) == self.fail_payment_call:
            fault, self.fault = self.fault, None
            raise fault(request)
        return httpx.Response(response.status_code, headers=response.headers, content=content)


async def place_coupons(platform: Platform) -> dict[str, str]:
    """Fund the players and place their coupons; coupon id → player."""
    placed = {}
    for player in PLAYERS:
        await platform.fund(player, DEPOSIT)
        for chosen, amount in STAKES:
            response = await platform.coupon(player, chosen, amount)
            assert response.status_code == 201, response.text
            placed[response.json()["coupon_id"]] = player
    return placed


async def settle_all_right(platform: Platform) -> None:
    await platform.close()
    await platform.results(DRAW, [(1, 0)] * 8)


async def payouts(platform: Platform) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = (await platform.staff("GET", f"/draws/{DRAW}/transfers")).json()
    return [t for t in listed if t["kind"] == "payout"]


async def assert_each_coupon_paid_once(platform: Platform) -> None:
    """Every balance is the deposit, less the stakes, plus the coupons' payouts once; the books balance."""
    paid = await payouts(platform)
    assert len({t["coupon_id"] for t in paid}) == len(paid) == 2 * len(PLAYERS)
    staked = sum(amount for _, amount in STAKES)
    for player in PLAYERS:
        won = sum(t["amount"] for t in paid if t["player_id"] == player)
        assert await platform.balance(player) == DEPOSIT - staked + won, player
    assert set((await platform.pools(DRAW)).values()) == {0}
    assert await platform.reconciled()


async def settle_through_the_api(platform: Platform) -> None:
    """Open the draw, place every coupon, enter all-right results and settle it through the staff API."""
    await platform.open_draw()
    await place_coupons(platform)
    await settle_all_right(platform)
    settled = await platform.staff("POST", f"/draws/{DRAW}/settle")
    assert settled.json()["status"] == "settled"


def sent(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The payments a batch's wallet call carries: its transfers' players and amounts, in plan order."""
    return [{"player_id": t["player_id"], "amount": t["amount"]} for t in batch]


async def test_t6_3_more_coupons_than_a_batch_holds_are_paid_once_each_in_ceil_n_over_n_wallet_calls(
    start_platform: PlatformFactory,
) -> None:
    line = WalletLine()
    async with start_platform(wrap_transport=line.around, payment_batch_size=4) as platform:
        await settle_through_the_api(platform)

        # Ten payouts, four a call: three wallet calls (ceil(10 / 4)), keyed by their batch number.
        paid = await payouts(platform)
        calls = sorted(line.payment_calls, key=lambda call: call.key)  # made up to 8 at a time
        assert [call.key for call in calls] == [f"totalizator:{DRAW}:payout:batch:{n}" for n in (1, 2, 3)]
        assert [len(call.body["payments"]) for call in calls] == [4, 4, 2]
        # Each carries exactly its batch's transfers, in plan order (a player may appear twice in one), and
        # every transfer of a batch is recorded with the operation the wallet made of the call.
        for number, call in enumerate(calls, start=1):
            batch = [t for t in paid if t["batch_no"] == number]
            assert call.body == {"currency": "USD", "payments": sent(batch)}
            assert {t["operation_id"] for t in batch} == {call.answer["operation_id"]}
            assert {t["idempotency_key"] for t in batch} == {call.key}
        assert not any(call.replayed for call in line.calls)
        first_batch = calls[0].body["payments"]
        assert len({p["player_id"] for p in first_batch}) < len(first_batch)  # w1's two coupons share a call
        await assert_each_coupon_paid_once(platform)


async def test_t6_3_a_draw_is_paid_a_window_of_calls_at_a_time_with_every_batch_whole(
    start_platform: PlatformFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One call per window (memory stays bounded): the ten payouts still go in three whole batches, once each."""
    monkeypatch.setattr(transfer_service, "CALLS_PER_WINDOW", 1)
    line = WalletLine()
    async with start_platform(wrap_transport=line.around, payment_batch_size=4) as platform:
        await settle_through_the_api(platform)
        assert [len(call.body["payments"]) for call in line.payment_calls] == [4, 4, 2]
        assert len({call.key for call in line.payment_calls}) == 3
        await assert_each_coupon_paid_once(platform)


@pytest.mark.parametrize("fault", [answer_lost, process_stopped])
async def test_t6_3_a_batch_made_but_not_recorded_is_resent_identically_and_pays_nobody_twice(
    start_platform: PlatformFactory, fault: Callable[[httpx.Request], Exception]
) -> None:
    line = WalletLine(fail_payment_call=3, fault=fault)
    async with start_platform(wrap_transport=line.around, payment_batch_size=4, transfer_concurrency=1) as platform:
        await platform.open_draw()
        await place_coupons(platform)
        await settle_all_right(platform)
        settle = platform.services.settlements.settle(DRAW, Staff(StaffRole.OPERATOR, "op-7"))
        if fault is process_stopped:
            with pytest.raises(ProcessStopped):
                await settle
        else:
            await settle  # the wallet's silence is no error: the clock retries
        # The wallet made the third batch, but the service never recorded it: the draw waits, its batch pending.
        (lost,) = line.payment_calls[2:]
        assert lost.status == 201 and not lost.replayed
        assert (await platform.staff("GET", f"/draws/{DRAW}")).json()["status"] == "settling"
        assert [t["status"] for t in await payouts(platform) if t["batch_no"] == 3] == ["pending", "pending"]
        before_restart = len(line.calls)

        # A new instance (nothing in memory) resumes: the same key and request, answered by the wallet as a
        # replay of the operation it made; the batches already recorded are not sent again.
        async with another_instance(platform) as restarted:
            await restarted.clock.tick()
        assert (await platform.staff("GET", f"/draws/{DRAW}")).json()["status"] == "settled"
        resent, *then = line.calls[before_restart:]
        assert (resent.key, resent.body) == (lost.key, lost.body)
        assert resent.replayed and resent.answer["operation_id"] == lost.answer["operation_id"]
        assert then and not any(call.pays for call in then)  # then only the organizer's transfers
        paid = await payouts(platform)
        assert {t["operation_id"] for t in paid if t["batch_no"] == 3} == {lost.answer["operation_id"]}
        assert all(t["status"] == "done" for t in paid)
        await assert_each_coupon_paid_once(platform)


async def test_payments_planned_before_batches_are_made_one_call_each_under_their_own_key(
    start_platform: PlatformFactory,
) -> None:
    """Rows written before migration 0003 have no batch number: one of them may already have reached the
    wallet under its own key, so it is resent alone, exactly as it was made then."""
    line = WalletLine()
    async with start_platform(wrap_transport=line.around) as platform:
        await platform.open_draw()
        placed = await place_coupons(platform)
        amounts = [amount for _ in PLAYERS for _, amount in STAKES]
        legacy = [
            payment(DRAW, PaymentKind.REFUND, coupon_id=coupon, player_id=player, currency="USD", amount=amount)
            for (coupon, player), amount in zip(placed.items(), amounts, strict=True)
        ]
        context = platform.services.context
        async with context.db.transaction() as session:
            await transfers.plan(session, DRAW, legacy, at=context.now())
        assert await platform.services.settlements.runner.run(DRAW)

        made = sorted((call.key, call.body) for call in line.payment_calls)
        assert made == sorted(
            (t.key, {"currency": "USD", "payments": [{"player_id": t.player_id, "amount": t.amount}]}) for t in legacy
        )
        for player in PLAYERS:
            assert await platform.balance(player) == DEPOSIT


@given(
    st.lists(st.tuples(st.sampled_from(PaymentKind), st.sampled_from(["USD", "EUR", "JPY"])), max_size=40),
    st.integers(1, 7),
    st.integers(1, 50),
)
def test_t6_3_batches_hold_at_most_n_payments_of_one_kind_and_currency_each_payment_once(
    shapes: list[tuple[PaymentKind, str]], size: int, first: int
) -> None:
    planned = [
        payment(DRAW, kind, coupon_id=f"c{n}", player_id=f"p{n % 3}", currency=currency, amount=100 + n)
        for n, (kind, currency) in enumerate(shapes)
    ]
    batched = in_batches(planned, size, first_batch_no=first)
    batches: dict[int, list[PlannedTransfer]] = {}
    for t in batched:
        assert t.batch_no is not None
        batches.setdefault(t.batch_no, []).append(t)
    # Numbered from `first` without gaps; ceil(n / N) batches per kind and currency.
    assert sorted(batches) == list(range(first, first + len(batches)))
    groups = Counter((kind, currency) for kind, currency in shapes)
    assert len(batches) == sum(-(-count // size) for count in groups.values())
    for batch in batches.values():
        assert len(batch) <= size and len({(t.phase, t.kind, t.currency) for t in batch}) == 1
    # Every payment once, unchanged but for its number; a group's batches, in order, are its plan order.
    for group in groups:
        in_group = [t for t in planned if (t.kind, t.currency) == group]
        numbered = sorted((t for t in batched if (t.kind, t.currency) == group), key=lambda t: t.batch_no or 0)
        assert [replace(t, batch_no=None) for t in numbered] == in_group
