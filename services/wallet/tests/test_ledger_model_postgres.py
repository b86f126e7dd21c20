"""A Hypothesis stateful model of the ledger, driven through the wallet's REST API on the real PostgreSQL.

Random deposits, withdrawals, buy-ins, payouts, bonus prizes, stakes, holds (post, void, expiry), reversals, replays of
earlier commands and reuses of their keys with other bodies. The model predicts each answer and every
balance; after every step the database must agree with it, every currency must sum to zero and every
balance must equal its entries.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from platform_kit.clock import FrozenClock
from sqlalchemy import select
from wallet.adapters.orm import accounts
from wallet_test_client import WalletApi, running_wallet

pytestmark = pytest.mark.postgres

T = TypeVar("T")
Key = tuple[str, str, str]  # (kind, owner, currency)
NOT_NEGATIVE = {"player", "bonus", "tournament_escrow", "draw_pool", "jackpot_fund", "tax"}


@dataclass
class Sent:
    path: str
    body: dict[str, Any]
    key: str
    concessionaire: str | None
    status: int
    answer: dict[str, Any]


@dataclass
class ModelOperation:
    operation_id: int
    legs: list[tuple[Key, Key, int]]
    is_reversal: bool = False
    reversed: bool = False


@dataclass
class ModelHold:
    hold_id: int
    player: Key
    destination: Key
    amount: int
    expires_at: datetime
    status: str = "pending"


@dataclass
class World:
    """What outlives one example: the running wallet and its event loop (one database for all examples)."""

    loop: asyncio.AbstractEventLoop
    app: FastAPI
    api: WalletApi
    clock: FrozenClock
    history: list[Sent] = field(default_factory=list)


class LedgerModel(RuleBasedStateMachine):
    world: ClassVar[World]

    def __init__(self) -> None:
        super().__init__()
        self.ns = uuid.uuid4().hex[:8]  # every example has its own players, concessionaires and tournaments
        self.balance: dict[Key, int] = defaultdict(int)
        self.held: dict[Key, int] = defaultdict(int)
        self.holds: list[ModelHold] = []
        self.operations: list[ModelOperation] = []
        self.sent: list[Sent] = []

    # -- helpers ----------------------------------------------------------------------------------------------
    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.world.loop.run_until_complete(coroutine)

    def player(self, number: int, currency: str = "EUR") -> Key:
        return ("player", f"{self.ns}-p{number}", currency)

    def concessionaire_of(self, number: int) -> str:
        return f"{self.ns}-c{0 if number < 2 else 1}"

    def send(self, path: str, body: dict[str, Any], *, concessionaire: str | None = None) -> httpx.Response:
        key = uuid.uuid4().hex
        response = self.run(self.world.api.command(path, body, key=key, concessionaire=concessionaire))
        self.sent.append(Sent(path, body, key, concessionaire, response.status_code, response.json()))
        return response

    def feasible(self, legs: list[tuple[Key, Key, int]], released: dict[Key, int] | None = None) -> bool:
        changes: dict[Key, int] = defaultdict(int)
        for debit, credit, amount in legs:
            changes[debit] -= amount
            changes[credit] += amount
        released = released or {}
        return all(
            change >= 0
            or key[0] not in NOT_NEGATIVE
            or self.balance[key] - self.held[key] + released.get(key, 0) + change >= 0
            for key, change in changes.items()
        )

    def expect_posted(
        self, response: httpx.Response, legs: list[tuple[Key, Key, int]], *, is_reversal: bool = False
    ) -> None:
        assert response.status_code == 201, response.text
        answered = sorted(
            ((t["debit"]["kind"], t["debit"]["owner"]), (t["credit"]["kind"], t["credit"]["owner"]), t["amount"])
            for t in response.json()["transfers"]
        )
        assert answered == sorted((d[:2], c[:2], a) for d, c, a in legs if a)
        for debit, credit, amount in legs:
            self.balance[debit] -= amount
            self.balance[credit] += amount
        self.operations.append(ModelOperation(response.json()["operation_id"], legs, is_reversal=is_reversal))

    def expect_refused(self, response: httpx.Response, status: int, code: str) -> None:
        assert (response.status_code, response.json().get("code")) == (status, code), response.text

    def money(self, path: str, body: dict[str, Any], legs: list[tuple[Key, Key, int]], **kwargs: Any) -> None:
        response = self.send(path, body, **kwargs)
        if self.feasible(legs):
            self.expect_posted(response, legs)
        else:
            self.expect_refused(response, 409, "insufficient_funds")

    # -- setup ------------------------------------------------------------------------------------------------
    @initialize(start=st.lists(st.integers(0, 20_000), min_size=4, max_size=4))
    def open_and_fund_accounts(self, start: list[int]) -> None:
        for number in range(3):
            _, owner, _ = self.player(number)
            self.run(self.world.api.open_player(owner, self.concessionaire_of(number), "EUR"))
        self.run(self.world.api.open_player(self.player(0)[1], self.concessionaire_of(0), "JPY"))
        for number, amount in enumerate(start[:3]):
            if amount:
                self.deposit(number, amount, yen=False)
        if start[3]:
            self.deposit(0, start[3], yen=True)

    # -- the concessionaire's cashier ---------------------------------------------------------------------------
    @rule(number=st.integers(0, 2), amount=st.integers(1, 5000), yen=st.booleans())
    def deposit(self, number: int, amount: int, yen: bool) -> None:
        currency = "JPY" if yen and number == 0 else "EUR"
        player, concessionaire = self.player(number, currency), self.concessionaire_of(number)
        self.money(
            f"/internal/v1/partner/players/{player[1]}/deposits",
            {"currency": currency, "amount": amount},
            [(("cash", concessionaire, currency), player, amount)],
            concessionaire=concessionaire,
        )

    def around(self, data: st.DataObject, key: Key) -> int:
        """An amount up to a little more than `key` has available: both sides of the no-overdraft edge."""
        available = self.balance[key] - self.held[key]
        return data.draw(
            st.one_of(st.integers(1, available + 100), st.sampled_from([available, available + 1])).filter(
                lambda a: a > 0
            )
        )

    @rule(number=st.integers(0, 2), data=st.data())
    def withdraw(self, number: int, data: st.DataObject) -> None:
        player, concessionaire = self.player(number), self.concessionaire_of(number)
        amount = self.around(data, player)
        self.money(
            f"/internal/v1/partner/players/{player[1]}/withdrawals",
            {"currency": "EUR", "amount": amount},
            [(player, ("cash", concessionaire, "EUR"), amount)],
            concessionaire=concessionaire,
        )

    @rule(
        concessionaire=st.sampled_from(["c0", "c1"]),
        number=st.integers(0, 2),
        amount=st.integers(1, 100),
    )
    def foreign_deposit_is_refused(self, concessionaire: str, number: int, amount: int) -> None:
        """A concessionaire never moves another's player's money."""
        if f"{self.ns}-{concessionaire}" == self.concessionaire_of(number):
            return
        response = self.send(
            f"/internal/v1/partner/players/{self.player(number)[1]}/deposits",
            {"currency": "EUR", "amount": amount},
            concessionaire=f"{self.ns}-{concessionaire}",
        )
        self.expect_refused(response, 403, "forbidden_concessionaire")

    # -- tournaments --------------------------------------------------------------------------------------------
    @rule(
        number=st.integers(0, 2),
        tournament=st.integers(0, 1),
        prize_part=st.integers(1, 800),
        fee_percent=st.integers(0, 25),
    )
    def buy_in(self, number: int, tournament: int, prize_part: int, fee_percent: int) -> None:
        fee = prize_part * fee_percent // 100  # P-8.1: the prize part stays at least 80% of the price
        player, concessionaire = self.player(number), self.concessionaire_of(number)
        escrow = ("tournament_escrow", f"{self.ns}-t{tournament}", "EUR")
        body = {"kind": "buy_in", "player_id": player[1], "currency": "EUR", "prize_part": prize_part, "fee": fee}
        legs = [(player, escrow, prize_part), (player, ("margin", concessionaire, "EUR"), fee)]
        self.money(f"/internal/v1/tournaments/{escrow[1]}/entries", body, legs)

    @rule(tournament=st.integers(0, 1), number=st.integers(0, 2), data=st.data())
    def payout(self, tournament: int, number: int, data: st.DataObject) -> None:
        escrow = ("tournament_escrow", f"{self.ns}-t{tournament}", "EUR")
        player = self.player(number)
        amount = self.around(data, escrow)
        body = {"currency": "EUR", "payouts": [{"player_id": player[1], "amount": amount}]}
        self.money(f"/internal/v1/tournaments/{escrow[1]}/payouts", body, [(escrow, player, amount)])

    @rule(
        sponsor=st.integers(0, 1),
        prizes=st.dictionaries(st.integers(0, 2), st.integers(1, 3000), min_size=1, max_size=3),
    )
    def bonus_prizes(self, sponsor: int, prizes: dict[int, int]) -> None:
        """P-9.3: bonus money lands beside the cash, which alone the withdrawals above may take (the model
        predicts them from the cash balance only)."""
        sponsorship = ("sponsorship", f"{self.ns}-c{sponsor}", "EUR")
        body = {
            "concessionaire_id": sponsorship[1],
            "currency": "EUR",
            "prizes": [{"player_id": self.player(number)[1], "amount": amount} for number, amount in prizes.items()],
        }
        legs = [(sponsorship, ("bonus", self.player(number)[1], "EUR"), amount) for number, amount in prizes.items()]
        self.money(f"/internal/v1/tournaments/{self.ns}-free/bonus-prizes", body, legs)

    # -- totalizator --------------------------------------------------------------------------------------------
    @rule(data=st.data())
    def stake(self, data: st.DataObject) -> None:
        player, pool = self.player(0, "JPY"), ("draw_pool", f"{self.ns}-d0", "JPY")
        amount = self.around(data, player)
        body = {"player_id": player[1], "currency": "JPY", "amount": amount}
        self.money(f"/internal/v1/draws/{pool[1]}/stakes", body, [(player, pool, amount)])

    # -- holds --------------------------------------------------------------------------------------------------
    @rule(number=st.integers(0, 2), ttl=st.integers(10, 300), data=st.data())
    def hold(self, number: int, ttl: int, data: st.DataObject) -> None:
        player, escrow = self.player(number), ("tournament_escrow", f"{self.ns}-t0", "EUR")
        amount = self.around(data, player)
        body = {
            "player_id": player[1],
            "currency": "EUR",
            "amount": amount,
            "destination": {"kind": "tournament_escrow", "owner": escrow[1]},
            "ttl_seconds": ttl,
        }
        response = self.send("/internal/v1/holds", body)
        if self.balance[player] - self.held[player] >= amount:
            assert response.status_code == 201, response.text
            self.held[player] += amount
            expires_at = self.world.clock.now() + timedelta(seconds=ttl)
            self.holds.append(ModelHold(response.json()["hold_id"], player, escrow, amount, expires_at))
        else:
            self.expect_refused(response, 409, "insufficient_funds")

    def _resolvable(self, hold: ModelHold, response: httpx.Response) -> bool:
        if hold.status == "expired" or (hold.status == "pending" and hold.expires_at <= self.world.clock.now()):
            self.expect_refused(response, 409, "hold_expired")
            return False
        if hold.status != "pending":
            self.expect_refused(response, 409, "hold_not_pending")
            return False
        return True

    @precondition(lambda self: self.holds)
    @rule(data=st.data(), whole=st.booleans())
    def post_hold(self, data: st.DataObject, whole: bool) -> None:
        hold = data.draw(st.sampled_from(self.holds))
        amount = hold.amount if whole else data.draw(st.integers(1, hold.amount))
        response = self.send(f"/internal/v1/holds/{hold.hold_id}/post", {} if whole else {"amount": amount})
        if self._resolvable(hold, response):
            assert response.status_code == 200, response.text
            self.held[hold.player] -= hold.amount
            self.balance[hold.player] -= amount
            self.balance[hold.destination] += amount
            hold.status = "posted"

    @precondition(lambda self: self.holds)
    @rule(data=st.data())
    def void_hold(self, data: st.DataObject) -> None:
        hold = data.draw(st.sampled_from(self.holds))
        response = self.send(f"/internal/v1/holds/{hold.hold_id}/void", {})
        if self._resolvable(hold, response):
            assert response.status_code == 200, response.text
            self.held[hold.player] -= hold.amount
            hold.status = "voided"

    @rule(seconds=st.integers(1, 150))
    def time_passes_and_expired_holds_are_swept(self, seconds: int) -> None:
        self.world.clock.advance(timedelta(seconds=seconds))
        self.run(self.world.app.state.services.holds.expire_due())
        for hold in self.holds:
            if hold.status == "pending" and hold.expires_at <= self.world.clock.now():
                self.held[hold.player] -= hold.amount
                hold.status = "expired"

    # -- corrections --------------------------------------------------------------------------------------------
    @precondition(lambda self: self.operations)
    @rule(data=st.data())
    def reverse(self, data: st.DataObject) -> None:
        operation = data.draw(st.sampled_from(self.operations))
        response = self.send(f"/internal/v1/operations/{operation.operation_id}/reversal", {"reason": "model"})
        mirror = [(credit, debit, amount) for debit, credit, amount in operation.legs]
        if operation.is_reversal:
            self.expect_refused(response, 409, "not_reversible")
        elif operation.reversed:
            self.expect_refused(response, 409, "already_reversed")
        elif not self.feasible(mirror):
            self.expect_refused(response, 409, "insufficient_funds")
        else:
            self.expect_posted(response, mirror, is_reversal=True)
            operation.reversed = True

    # -- idempotency --------------------------------------------------------------------------------------------
    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def replay_gets_the_first_answer_and_changes_nothing(self, data: st.DataObject) -> None:
        first = data.draw(st.sampled_from(self.sent))
        response = self.run(
            self.world.api.command(first.path, first.body, key=first.key, concessionaire=first.concessionaire)
        )
        assert (response.status_code, response.json()) == (first.status, first.answer)
        assert response.headers["idempotent-replayed"] == "true"

    @precondition(lambda self: any("amount" in s.body or "prize_part" in s.body for s in self.sent))
    @rule(data=st.data())
    def reused_key_with_another_body_is_refused(self, data: st.DataObject) -> None:
        first = data.draw(st.sampled_from([s for s in self.sent if "amount" in s.body or "prize_part" in s.body]))
        field_name = "amount" if "amount" in first.body else "prize_part"
        other = first.body | {field_name: first.body[field_name] + 1}
        response = self.run(
            self.world.api.command(first.path, other, key=first.key, concessionaire=first.concessionaire)
        )
        self.expect_refused(response, 409, "idempotency_key_reused")

    # -- invariants ---------------------------------------------------------------------------------------------
    @invariant()
    def database_agrees_with_the_model(self) -> None:
        async def stored() -> dict[Key, tuple[int, int]]:
            async with self.world.app.state.services.runtime.db.transaction() as session:
                rows = await session.execute(
                    select(
                        accounts.c.kind, accounts.c.owner, accounts.c.currency, accounts.c.balance, accounts.c.held
                    ).where(accounts.c.owner.like(f"{self.ns}-%"))
                )
                return {(kind, owner, cur): (balance, held) for kind, owner, cur, balance, held in rows}

        actual = self.run(stored())
        keys = set(actual) | {k for k in self.balance if self.balance[k]} | {k for k in self.held if self.held[k]}
        assert {k: actual.get(k, (0, 0)) for k in keys} == {k: (self.balance[k], self.held[k]) for k in keys}
        for key, (balance, held) in actual.items():
            assert key[0] not in NOT_NEGATIVE or balance - held >= 0, key

    @invariant()
    def every_currency_sums_to_zero_and_balances_equal_entries(self) -> None:
        report = self.run(self.world.api.reconciliation())
        assert report["ok"], report


async def test_ledger_model_holds_its_invariants_after_every_step(postgres_url: str) -> None:
    # Hypothesis drives the machine synchronously: it gets its own thread and event loop, and the wallet
    # (app, database pool) lives on that loop for the whole run.
    await asyncio.to_thread(_run_model, postgres_url)


def _run_model(url: str) -> None:
    loop = asyncio.new_event_loop()
    clock = FrozenClock(datetime(2025, 3, 1, tzinfo=UTC))
    wallet = running_wallet(url, clock=clock)
    app, api = loop.run_until_complete(wallet.__aenter__())
    try:
        LedgerModel.world = World(loop, app, api, clock)
        run_state_machine_as_test(
            LedgerModel,
            settings=settings(
                max_examples=10,
                stateful_step_count=35,
                deadline=None,
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
    finally:
        loop.run_until_complete(wallet.__aexit__(None, None, None))
        loop.close()
