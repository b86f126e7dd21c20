"""The money operations through the REST API on the real PostgreSQL."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from platform_kit.clock import FrozenClock
from platform_kit.testing import eventually
from sqlalchemy import func, select, text
from wallet.adapters import accounts as accounts_adapter
from wallet.adapters.orm import metadata, operations, transfers
from wallet_test_client import WalletApi, running_wallet

pytestmark = pytest.mark.postgres


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2025, 3, 1, 12, tzinfo=UTC))


@pytest.fixture
async def wallet(postgres_url: str, clock: FrozenClock) -> AsyncIterator[tuple[FastAPI, WalletApi]]:
    async with running_wallet(postgres_url, clock=clock) as running:
        yield running


@pytest.fixture
def api(wallet: tuple[FastAPI, WalletApi]) -> WalletApi:
    return wallet[1]


async def funded(api: WalletApi, player: str, amount: int, concessionaire: str = "c1", currency: str = "EUR") -> None:
    await api.open_player(player, concessionaire, currency)
    response = await api.deposit(concessionaire, player, amount, currency)
    assert response.status_code == 201, response.text


def problem(response: object, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


async def concessionaire_balance(api: WalletApi, concessionaire: str, kind: str, currency: str = "EUR") -> int:
    accounts = (await api.get("/internal/v1/partner/accounts", concessionaire=concessionaire, currency=currency)).json()
    return sum(a["balance"] for a in accounts["accounts"] if a["kind"] == kind)


# -- tournaments ------------------------------------------------------------------------------------------------
async def test_p10_10_refund_returns_full_price_and_takes_the_fee_back_from_the_margin(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await funded(api, "p2", 1000, concessionaire="c2")
    for player in ("p1", "p2"):
        assert (await api.buy_in("t1", player, 900, 100)).status_code == 201
    refunds = [{"player_id": p, "prize_part": 900, "fee": 100} for p in ("p1", "p2")]
    response = await api.command("/internal/v1/tournaments/t1/refunds", {"currency": "EUR", "refunds": refunds})
    assert response.status_code == 201, response.text
    assert (await api.balance("p1"), await api.balance("p2")) == (1000, 1000)
    assert await api.escrow("t1") == 0
    assert await concessionaire_balance(api, "c1", "margin") == 0
    assert await concessionaire_balance(api, "c2", "margin") == 0


async def test_p8_4_payouts_beyond_the_escrow_are_refused_whole(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await funded(api, "p2", 1000)
    await api.buy_in("t1", "p1", 900, 100)
    await api.buy_in("t1", "p2", 900, 100)
    too_much = [{"player_id": "p1", "amount": 1000}, {"player_id": "p2", "amount": 801}]
    response = await api.command("/internal/v1/tournaments/t1/payouts", {"currency": "EUR", "payouts": too_much})
    problem(response, 409, "insufficient_funds")
    refusal = response.json()  # the account that fell short, among the three the payout changes
    assert (refusal["account"], refusal["available"], refusal["needed"]) == ("tournament_escrow:t1:EUR", 1800, 1801)
    assert (await api.balance("p1"), await api.escrow("t1")) == (0, 1800)  # nothing of it was paid
    exact = [{"player_id": "p1", "amount": 1000}, {"player_id": "p2", "amount": 800}]
    assert (
        await api.command("/internal/v1/tournaments/t1/payouts", {"currency": "EUR", "payouts": exact})
    ).status_code == 201
    assert (await api.balance("p1"), await api.balance("p2"), await api.escrow("t1")) == (1000, 800, 0)


async def test_p8_4_payouts_to_more_accounts_than_one_statement_changes_are_paid_whole_or_refused_whole(
    api: WalletApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large payout changes its accounts in several statements (here of two accounts each, the escrow in the
    last one): a refusal in the last one still leaves nothing paid."""
    monkeypatch.setattr(accounts_adapter, "ACCOUNTS_PER_STATEMENT", 2)
    players = [f"p{n}" for n in range(5)]
    for player in players:
        await funded(api, player, 100)
    for player in players:
        assert (await api.buy_in("t1", player, 90, 10)).status_code == 201
    too_much = [{"player_id": player, "amount": 91} for player in players]
    response = await api.command("/internal/v1/tournaments/t1/payouts", {"currency": "EUR", "payouts": too_much})
    problem(response, 409, "insufficient_funds")
    assert (response.json()["account"], response.json()["needed"]) == ("tournament_escrow:t1:EUR", 455)
    assert [await api.balance(player) for player in players] == [0] * 5 and await api.escrow("t1") == 450
    exact = [{"player_id": player, "amount": 90} for player in players]
    assert (
        await api.command("/internal/v1/tournaments/t1/payouts", {"currency": "EUR", "payouts": exact})
    ).status_code == 201
    assert [await api.balance(player) for player in players] == [90] * 5 and await api.escrow("t1") == 0
    assert (await api.reconciliation())["ok"] is True


async def test_p8_3_guarantee_overlay_tops_the_pool_up_from_the_concessionaire(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await api.buy_in("t1", "p1", 900, 100)
    body = {"cause": "guarantee", "concessionaire_id": "c1", "currency": "EUR", "amount": 4100}
    response = await api.command("/internal/v1/tournaments/t1/overlays", body)
    assert response.status_code == 201, response.text
    assert await api.escrow("t1") == 5000
    # The guarantee is a promise: the sponsorship account goes negative until the concessionaire funds it.
    assert await concessionaire_balance(api, "c1", "sponsorship") == -4100
    funding = {"account_kind": "sponsorship", "currency": "EUR", "amount": 4100}
    assert (await api.command("/internal/v1/partner/funding", funding, concessionaire="c1")).status_code == 201
    assert await concessionaire_balance(api, "c1", "sponsorship") == 0


async def test_p3_4_satellite_entry_counts_as_a_paid_buy_in_for_pool_and_tax_base(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await funded(api, "p2", 1000)
    await api.buy_in("sat", "p1", 450, 50)
    await api.buy_in("sat", "p2", 450, 50)
    body = {"player_id": "p1", "satellite_tournament_id": "sat", "currency": "EUR", "prize_part": 800, "fee": 100}
    response = await api.command("/internal/v1/tournaments/main/satellite-entries", body)
    assert response.status_code == 201, response.text
    assert (await api.escrow("sat"), await api.escrow("main")) == (0, 800)
    tax = (await api.get("/internal/v1/tournaments/main")).json()["tax_base"]
    assert tax == [{"concessionaire_id": "c1", "currency": "EUR", "amount": 900, "entries": 1}]


async def test_p9_2_sponsored_freeroll_entries_form_the_pool_and_the_tax_base(api: WalletApi) -> None:
    await api.open_player("p1", "c1")
    body = {"player_id": "p1", "concessionaire_id": "c1", "currency": "EUR", "amount": 50}
    assert (await api.command("/internal/v1/tournaments/free/sponsored-entries", body)).status_code == 201
    assert await api.escrow("free") == 50
    assert (await api.get("/internal/v1/tournaments/free")).json()["tax_base"][0]["amount"] == 50


# -- bonus freerolls (P-9.3) ------------------------------------------------------------------------------------
async def test_p9_3_bonus_prizes_go_from_the_sponsorship_account_to_the_players_bonus_accounts(api: WalletApi) -> None:
    await funded(api, "p1", 100)
    await api.open_player("p2", "c1")
    first = await api.bonus_prizes("free", "c1", {"p1": 500, "p2": 200}, key="bonus-1")
    assert first.status_code == 201, first.text
    operation = first.json()
    assert (operation["kind"], operation["tournament_id"], operation["concessionaire_id"]) == (
        "bonus_prizes",
        "free",
        "c1",
    )
    assert operation["tax_base"] is None  # bonus money forms no cash prize pool: nothing taxable
    assert sorted(
        (t["debit"]["kind"], t["debit"]["owner"], t["credit"]["kind"], t["credit"]["owner"], t["amount"], t["purpose"])
        for t in operation["transfers"]
    ) == [
        ("sponsorship", "c1", "bonus", "p1", 500, "bonus_prize"),
        ("sponsorship", "c1", "bonus", "p2", 200, "bonus_prize"),
    ]
    # The sponsorship account goes negative, as for overlays: what the concessionaire owes until it funds it.
    assert await concessionaire_balance(api, "c1", "sponsorship") == -700
    assert (await api.balance("p1"), await api.balance("p1", kind="bonus")) == (100, 500)
    assert (await api.balance("p2"), await api.balance("p2", kind="bonus")) == (0, 200)
    assert (await api.get("/internal/v1/tournaments/free")).json() == {
        "tournament_id": "free",
        "escrow": None,
        "tax_base": [],
    }

    # The player sees its bonus money next to its cash, told apart by the kind, on both APIs.
    for listing in (
        await api.get("/internal/v1/players/p1/accounts"),
        await api.get("/internal/v1/partner/players/p1/accounts", concessionaire="c1"),
    ):
        assert listing.status_code == 200, listing.text
        assert sorted((a["kind"], a["currency"], a["balance"], a["available"]) for a in listing.json()["accounts"]) == [
            ("bonus", "EUR", 500, 500),
            ("player", "EUR", 100, 100),
        ]
        (bonus,) = [a for a in listing.json()["accounts"] if a["kind"] == "bonus"]
        assert (bonus["owner"], bonus["concessionaire_id"]) == ("p1", "c1")
    statement = (await api.get("/internal/v1/partner/players/p1/statement", concessionaire="c1")).json()["items"]
    assert [(line["account"]["kind"], line["amount"], line["operation_kind"]) for line in statement] == [
        ("bonus", 500, "bonus_prizes"),
        ("player", 100, "deposit"),
    ]
    assert statement[0]["counterparty"] == {"kind": "sponsorship", "owner": "c1", "currency": "EUR"}

    # Same key, same request: the first answer, nothing paid twice. Same key, another request: refused.
    again = await api.bonus_prizes("free", "c1", {"p1": 500, "p2": 200}, key="bonus-1")
    assert (again.status_code, again.json()) == (201, operation)
    assert again.headers["idempotent-replayed"] == "true"
    problem(await api.bonus_prizes("free", "c1", {"p1": 501, "p2": 200}, key="bonus-1"), 409, "idempotency_key_reused")
    assert (await api.balance("p1", kind="bonus"), await concessionaire_balance(api, "c1", "sponsorship")) == (
        500,
        -700,
    )

    # One bonus account per player and currency, opened with the first prize in that currency.
    assert (await api.bonus_prizes("free-usd", "c1", {"p1": 30}, "USD")).status_code == 201
    assert (await api.balance("p1", "USD", kind="bonus"), await api.balance("p1", kind="bonus")) == (30, 500)
    report = await api.reconciliation()
    assert report["ok"] is True and {c["sum_of_balances"] for c in report["currencies"]} == {0}


async def test_p9_3_bonus_money_is_not_withdrawable(api: WalletApi) -> None:
    await funded(api, "p1", 100)
    assert (await api.bonus_prizes("free", "c1", {"p1": 5000})).status_code == 201
    withdraw = {"currency": "EUR", "amount": 101}
    refused = await api.command("/internal/v1/partner/players/p1/withdrawals", withdraw, concessionaire="c1")
    problem(refused, 409, "insufficient_funds")
    assert (refused.json()["account"], refused.json()["available"]) == ("player:p1:EUR", 100)
    cashed = await api.command(
        "/internal/v1/partner/players/p1/withdrawals", withdraw | {"amount": 100}, concessionaire="c1"
    )
    assert cashed.status_code == 201, cashed.text
    assert [(t["debit"]["kind"], t["credit"]["kind"]) for t in cashed.json()["transfers"]] == [("player", "cash")]
    problem(
        await api.command("/internal/v1/partner/players/p1/withdrawals", withdraw, concessionaire="c1"),
        409,
        "insufficient_funds",
    )
    # Nor can a hold reserve it, nor move cash into it.
    problem(await api.command("/internal/v1/holds", _hold_body(1)), 409, "insufficient_funds")
    await api.deposit("c1", "p1", 10)
    into_bonus = _hold_body(10) | {"destination": {"kind": "bonus", "owner": "p1"}}
    problem(await api.command("/internal/v1/holds", into_bonus), 422, "invalid_amount")
    assert (await api.balance("p1"), await api.balance("p1", kind="bonus")) == (10, 5000)
    assert (await api.reconciliation())["ok"] is True


async def test_p9_3_bonus_prizes_are_refused_whole_when_invalid(api: WalletApi) -> None:
    await api.open_player("p1", "c1")
    await api.open_player("p2", "c1")

    def body(prizes: list[dict[str, object]]) -> dict[str, object]:
        return {"concessionaire_id": "c1", "currency": "EUR", "prizes": prizes}

    async def refused(prizes: list[dict[str, object]], code: str) -> dict[str, Any]:
        response = await api.command("/internal/v1/tournaments/free/bonus-prizes", body(prizes))
        problem(response, 422, code)
        answer: dict[str, Any] = response.json()
        return answer

    empty = await refused([], "validation_failed")
    assert [(e["field"], e["code"]) for e in empty["errors"]] == [("body.prizes", "too_short")]
    for amount, error in ((0, "greater_than"), (-5, "greater_than"), (1.5, "int_type"), ("7", "int_type")):
        bad = await refused(
            [{"player_id": "p1", "amount": 10}, {"player_id": "p2", "amount": amount}], "validation_failed"
        )
        assert [(e["field"], e["code"]) for e in bad["errors"]] == [("body.prizes.1.amount", error)]
    twice = [{"player_id": "p1", "amount": 10}, {"player_id": "p2", "amount": 20}, {"player_id": "p1", "amount": 30}]
    assert (await refused(twice, "duplicate_player"))["player_id"] == "p1"
    problem(await api.bonus_prizes("free", "c1", {"p1": 10, "ghost": 20}), 404, "unknown_account")
    problem(await api.bonus_prizes("free", "c1", {"p1": 10}, "eur"), 422, "validation_failed")
    problem(await api.bonus_prizes("free", "c1", {"p1": 10}, "XXX"), 422, "unknown_currency")
    listing = (await api.get("/internal/v1/players/p1/accounts")).json()["accounts"]
    assert [a["kind"] for a in listing] == ["player"]  # nothing was paid, no bonus account opened
    assert await concessionaire_balance(api, "c1", "sponsorship") == 0


async def test_p9_3_bonus_prizes_for_a_concessionaire_touch_only_its_accounts_and_players(api: WalletApi) -> None:
    await api.open_player("alice", "c1")
    await api.open_player("bob", "c2")
    problem(await api.bonus_prizes("free", "c1", {"alice": 10}, concessionaire="c2"), 403, "forbidden_concessionaire")
    problem(
        await api.bonus_prizes("free", "c1", {"alice": 10, "bob": 10}, concessionaire="c1"),
        403,
        "forbidden_concessionaire",
    )
    assert (await api.bonus_prizes("free", "c1", {"alice": 10}, concessionaire="c1")).status_code == 201
    problem(
        await api.get("/internal/v1/partner/players/alice/accounts", concessionaire="c2"),
        403,
        "forbidden_concessionaire",
    )
    assert await api.balance("alice", kind="bonus") == 10


async def test_p8_6_jackpot_is_funded_from_the_fee_and_pays_only_what_it_holds(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    body = {
        "kind": "buy_in",
        "player_id": "p1",
        "currency": "EUR",
        "prize_part": 900,
        "fee": 100,
        "jackpot_contribution": 20,
    }
    assert (await api.command("/internal/v1/tournaments/t1/entries", body)).status_code == 201
    assert await concessionaire_balance(api, "c1", "jackpot_fund") == 20
    assert await concessionaire_balance(api, "c1", "margin") == 80
    award = {"player_id": "p1", "currency": "EUR", "amount": 21}
    problem(await api.command("/internal/v1/jackpots/c1/awards", award), 409, "insufficient_funds")
    assert (await api.command("/internal/v1/jackpots/c1/awards", award | {"amount": 20})).status_code == 201
    assert await api.balance("p1") == 20


async def test_p8_7_tax_accrual_sets_tax_aside_from_the_margin(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await api.buy_in("t1", "p1", 900, 100)
    body = {"concessionaire_id": "c1", "currency": "EUR", "amount": 30}
    assert (await api.command("/internal/v1/tournaments/t1/tax-accruals", body)).status_code == 201
    assert await concessionaire_balance(api, "c1", "tax") == 30
    assert await concessionaire_balance(api, "c1", "margin") == 70


async def test_a_tournament_is_played_in_one_currency(api: WalletApi) -> None:
    await funded(api, "p1", 1000)
    await funded(api, "p1", 1000, currency="USD")
    assert (await api.buy_in("t1", "p1", 900, 100)).status_code == 201
    problem(await api.buy_in("t1", "p1", 900, 100, "USD"), 422, "currency_mismatch")


async def test_unknown_accounts_and_bad_requests_are_refused_clearly(api: WalletApi) -> None:
    problem(await api.buy_in("t1", "ghost", 900, 100), 404, "unknown_account")
    await funded(api, "p1", 1000)
    problem(await api.buy_in("t1", "p1", 900, 100, "JPY"), 404, "unknown_account")
    problem(await api.buy_in("t1", "p1", 700, 300), 422, "prize_part_below_80_percent")
    floaty = {"kind": "buy_in", "player_id": "p1", "currency": "EUR", "prize_part": 900.0, "fee": 100}
    problem(await api.command("/internal/v1/tournaments/t1/entries", floaty), 422, "validation_failed")
    problem(await api.buy_in("t1", "p1", 900, 100, "XXX"), 422, "unknown_currency")
    no_key = await api.http.post(
        "/internal/v1/partner/funding", json={}, headers={"X-Internal-Token": "dev-internal-token"}
    )
    problem(no_key, 400, "idempotency_key_required")
    no_token = await api.http.get("/internal/v1/reconciliation")
    problem(no_token, 401, "unauthorized")


async def test_p3_an_entry_acting_for_a_concessionaire_opens_its_players_account_and_only_its_own(
    api: WalletApi,
) -> None:
    """Issue 14: a registration pays its entry in one call, acting for the player's concessionaire. A player with
    no account in the tournament's currency — or unknown to the wallet — gets one opened with the entry, so it is
    refused as an empty account is (409 insufficient_funds) and nothing stays opened; another concessionaire's
    player is refused whether it has that account or not."""
    await funded(api, "alice", 1000, "c1")
    await funded(api, "bob", 1000, "c2")

    problem(await api.buy_in("t1", "ghost", 900, 100, concessionaire="c1"), 409, "insufficient_funds")
    problem(await api.buy_in("t1", "alice", 900, 100, "USD", concessionaire="c1"), 409, "insufficient_funds")
    problem(await api.buy_in("t1", "bob", 900, 100, concessionaire="c1"), 403, "forbidden_concessionaire")
    problem(await api.buy_in("t2", "bob", 900, 100, "USD", concessionaire="c1"), 403, "forbidden_concessionaire")
    paid = await api.buy_in("t1", "alice", 900, 100, concessionaire="c1")

    assert paid.status_code == 201, paid.text
    assert await api.balance("alice") == 0 and await api.balance("bob") == 1000
    problem(await api.get("/internal/v1/players/ghost/accounts"), 404, "unknown_account")
    listed = (await api.get("/internal/v1/players/alice/accounts")).json()["accounts"]
    assert [a["currency"] for a in listed] == ["EUR"]  # the refused entry's USD account went with it
    assert await api.escrow("t1") == 900 and await api.escrow("t2") == 0
    # Nothing of the rolled-back opening was remembered: the player is opened and paid for as any other.
    await funded(api, "ghost", 1000, "c2")
    assert (await api.buy_in("t1", "ghost", 900, 100, concessionaire="c2")).status_code == 201


# -- totalizator ------------------------------------------------------------------------------------------------
async def test_t6_3_a_settled_draw_leaves_its_pool_at_zero(api: WalletApi) -> None:
    """T-6.3: paid + carried + remainder + organizer share = pool + jackpot played + top-ups."""
    await funded(api, "p1", 10_000, currency="USD")
    await funded(api, "p2", 10_000, currency="USD")
    for player, amount in (("p1", 3000), ("p2", 7000)):
        body = {"player_id": player, "currency": "USD", "amount": amount, "coupon_id": f"k-{player}"}
        assert (await api.command("/internal/v1/draws/d1/stakes", body)).status_code == 201
    moves = [("organizer_share", 500), ("jackpot_carry", 1000), ("organizer_top_up", 120), ("rounding_remainder", 3)]
    for kind, amount in moves:
        body = {"kind": kind, "currency": "USD", "amount": amount}
        assert (await api.command("/internal/v1/draws/d1/organizer-transfers", body)).status_code == 201
    payouts = {"currency": "USD", "payments": [{"player_id": "p1", "amount": 8617}]}
    assert (await api.command("/internal/v1/draws/d1/payouts", payouts)).status_code == 201
    pools = (await api.get("/internal/v1/draws/d1")).json()["pools"]
    assert [(p["currency"], p["balance"]) for p in pools] == [("USD", 0)]
    assert await api.balance("p1", "USD") == 10_000 - 3000 + 8617


# -- concessionaires --------------------------------------------------------------------------------------------
async def test_a_concessionaire_sees_and_moves_only_its_own_players_money(api: WalletApi) -> None:
    await funded(api, "alice", 1000, concessionaire="c1")
    await funded(api, "bob", 1000, concessionaire="c2")
    problem(await api.deposit("c2", "alice", 10), 403, "forbidden_concessionaire")
    withdraw = await api.command(
        "/internal/v1/partner/players/alice/withdrawals", {"currency": "EUR", "amount": 10}, concessionaire="c2"
    )
    problem(withdraw, 403, "forbidden_concessionaire")
    problem(
        await api.get("/internal/v1/partner/players/alice/statement", concessionaire="c2"),
        403,
        "forbidden_concessionaire",
    )
    problem(
        await api.get("/internal/v1/partner/players/alice/accounts", concessionaire="c2"),
        403,
        "forbidden_concessionaire",
    )
    steal = await api.command("/internal/v1/partner/players/alice/accounts", {"currency": "USD"}, concessionaire="c2")
    problem(steal, 403, "forbidden_concessionaire")
    relayed = await api.command(
        "/internal/v1/tournaments/t1/entries",
        {"kind": "buy_in", "player_id": "alice", "currency": "EUR", "prize_part": 90, "fee": 10},
        concessionaire="c2",
    )
    problem(relayed, 403, "forbidden_concessionaire")
    assert await api.balance("alice") == 1000
    own = (await api.get("/internal/v1/partner/statement", concessionaire="c2")).json()["items"]
    assert {line["counterparty"]["owner"] for line in own} == {"bob"}


# -- corrections ------------------------------------------------------------------------------------------------
async def test_a_correction_is_a_reversing_operation_made_once(
    api: WalletApi, wallet: tuple[FastAPI, WalletApi]
) -> None:
    await funded(api, "p1", 1000)
    entry = (await api.buy_in("t1", "p1", 900, 100)).json()
    reversal = await api.command(
        f"/internal/v1/operations/{entry['operation_id']}/reversal", {"reason": "booked twice"}
    )
    assert reversal.status_code == 201, reversal.text
    assert reversal.json()["reverses_operation_id"] == entry["operation_id"]
    assert (await api.balance("p1"), await api.escrow("t1")) == (1000, 0)
    assert (await api.get("/internal/v1/tournaments/t1")).json()["tax_base"][0] | {"concessionaire_id": "c1"} == {
        "concessionaire_id": "c1",
        "currency": "EUR",
        "amount": 0,
        "entries": 0,
    }
    again = await api.command(f"/internal/v1/operations/{entry['operation_id']}/reversal", {"reason": "again"})
    problem(again, 409, "already_reversed")
    back = await api.command(f"/internal/v1/operations/{reversal.json()['operation_id']}/reversal", {"reason": "undo"})
    problem(back, 409, "not_reversible")
    async with wallet[0].state.services.runtime.db.transaction() as session:  # append-only: both are kept
        assert await session.scalar(select(func.count()).select_from(operations)) == 3


# -- idempotency ------------------------------------------------------------------------------------------------
async def test_a_refusal_is_the_keys_answer_for_good(api: WalletApi) -> None:
    await funded(api, "p1", 500)
    problem(await api.buy_in("t1", "p1", 900, 100, key="k1"), 409, "insufficient_funds")
    await api.deposit("c1", "p1", 500)
    replay = await api.buy_in("t1", "p1", 900, 100, key="k1")
    problem(replay, 409, "insufficient_funds")
    assert replay.headers["idempotent-replayed"] == "true"
    assert (await api.buy_in("t1", "p1", 900, 100, key="k2")).status_code == 201


async def test_keys_are_scoped_per_concessionaire(api: WalletApi) -> None:
    await api.open_player("a", "c1")
    await api.open_player("b", "c2")
    assert (await api.deposit("c1", "a", 10, key="same")).status_code == 201
    assert (await api.deposit("c2", "b", 20, key="same")).status_code == 201
    assert (await api.balance("a"), await api.balance("b")) == (10, 20)


# -- holds ------------------------------------------------------------------------------------------------------
async def hold(api: WalletApi, amount: int, ttl: int | None = None) -> dict[str, object]:
    body = {
        "player_id": "p1",
        "currency": "EUR",
        "amount": amount,
        "destination": {"kind": "tournament_escrow", "owner": "t1"},
        "ttl_seconds": ttl,
    }
    response = await api.command("/internal/v1/holds", body)
    assert response.status_code == 201, response.text
    return response.json()


async def test_holds_reserve_then_post_or_void_or_expire(
    api: WalletApi, wallet: tuple[FastAPI, WalletApi], clock: FrozenClock
) -> None:
    await funded(api, "p1", 1000)
    posted, voided, forgotten = await hold(api, 300), await hold(api, 300), await hold(api, 300, ttl=60)
    assert (await api.player_account("p1"))["available"] == 100
    refused = await api.command("/internal/v1/holds", {**_hold_body(200)})
    problem(refused, 409, "insufficient_funds")
    assert (refused.json()["account"], refused.json()["available"], refused.json()["needed"]) == (
        "player:p1:EUR",
        100,
        200,
    )

    response = await api.command(f"/internal/v1/holds/{posted['hold_id']}/post", {"amount": 250})
    assert response.json()["status"] == "posted" and response.json()["posted_amount"] == 250
    problem(await api.command(f"/internal/v1/holds/{posted['hold_id']}/void"), 409, "hold_not_pending")
    assert (await api.command(f"/internal/v1/holds/{voided['hold_id']}/void")).json()["status"] == "voided"

    clock.advance(timedelta(seconds=61))
    problem(await api.command(f"/internal/v1/holds/{forgotten['hold_id']}/post"), 409, "hold_expired")
    assert await wallet[0].state.services.holds.expire_due() == 1
    assert (await api.get(f"/internal/v1/holds/{forgotten['hold_id']}")).json()["status"] == "expired"

    account = await api.player_account("p1")
    assert (account["balance"], account["held"], await api.escrow("t1")) == (750, 0, 250)
    assert (await api.reconciliation())["ok"] is True


def _hold_body(amount: int) -> dict[str, object]:
    return {"player_id": "p1", "currency": "EUR", "amount": amount, "destination": {"kind": "draw_pool", "owner": "d"}}


# -- statements -------------------------------------------------------------------------------------------------
async def test_statements_page_through_every_line_once_newest_first(api: WalletApi) -> None:
    await funded(api, "p1", 10_000)
    for number in range(7):
        await api.buy_in(f"t{number}", "p1", 90, 10)  # two lines each
    lines, cursor = [], None
    while True:
        page = (
            await api.get("/internal/v1/partner/players/p1/statement", concessionaire="c1", limit=3, cursor=cursor)
        ).json()
        lines += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(lines) == 15
    assert [line["transfer_id"] for line in lines] == sorted((line["transfer_id"] for line in lines), reverse=True)
    assert sum(line["amount"] for line in lines) == await api.balance("p1") == 9300
    deposits = (await api.get("/internal/v1/partner/players/p1/statement", concessionaire="c1", kind="deposit")).json()
    assert [line["amount"] for line in deposits["items"]] == [10_000]
    margin = (await api.get("/internal/v1/partner/statement", concessionaire="c1", account_kind="margin")).json()[
        "items"
    ]
    assert len(margin) == 7 and all(line["amount"] == 10 for line in margin)


# -- reconciliation ---------------------------------------------------------------------------------------------
async def test_balances_equal_the_sum_of_their_entries(api: WalletApi, wallet: tuple[FastAPI, WalletApi]) -> None:
    await funded(api, "p1", 1000)
    await funded(api, "p2", 1000)
    await api.buy_in("t1", "p1", 900, 100)
    await api.command(
        "/internal/v1/tournaments/t1/payouts", {"currency": "EUR", "payouts": [{"player_id": "p2", "amount": 900}]}
    )
    async with wallet[0].state.services.runtime.db.transaction() as session:
        rows = (await session.execute(text("SELECT id, balance FROM accounts"))).all()
        for account_id, balance in rows:
            credits = await session.scalar(
                select(func.coalesce(func.sum(transfers.c.amount), 0)).where(
                    transfers.c.credit_account_id == account_id
                )
            )
            debits = await session.scalar(
                select(func.coalesce(func.sum(transfers.c.amount), 0)).where(transfers.c.debit_account_id == account_id)
            )
            assert balance == credits - debits
        assert sum(balance for _, balance in rows) == 0


async def test_reconciliation_failure_is_reported_exposed_and_logged_loudly(
    api: WalletApi, wallet: tuple[FastAPI, WalletApi], caplog: pytest.LogCaptureFixture
) -> None:
    await funded(api, "p1", 1000)
    assert (await api.reconciliation())["ok"] is True
    async with wallet[0].state.services.runtime.db.transaction() as session:  # money appears from nowhere
        await session.execute(text("UPDATE accounts SET balance = balance + 1 WHERE kind = 'player'"))
    with caplog.at_level(logging.CRITICAL):
        report = await api.reconciliation()
    assert report["ok"] is False
    (eur,) = report["currencies"]
    assert eur["sum_of_balances"] == 1
    assert eur["drifts"] == [
        {"account": "player:p1:EUR", "balance": 1001, "balance_from_entries": 1000, "held": 0, "held_from_holds": 0}
    ]
    assert any("RECONCILIATION FAILED" in record.message for record in caplog.records)
    metrics = (await api.http.get("/metrics")).text
    assert "wallet_reconciliation_ok 0.0" in metrics
    assert 'wallet_reconciliation_imbalance{currency="EUR"} 1.0' in metrics
    async with wallet[0].state.services.runtime.db.transaction() as session:
        events = (await session.scalars(select(metadata.tables["outbox"].c.event_type))).all()
    assert "wallet.reconciliation.failed" in events


async def test_the_periodic_check_notices_a_broken_ledger_by_itself(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_wallet(postgres_url, reconciliation_interval_seconds=0.05) as (app, api):
        await funded(api, "p1", 1000)
        async with app.state.services.runtime.db.transaction() as session:
            await session.execute(text("UPDATE accounts SET balance = balance - 5 WHERE kind = 'cash'"))
        with caplog.at_level(logging.CRITICAL):

            async def alarmed() -> bool:
                return "wallet_reconciliation_ok 0.0" in (await api.http.get("/metrics")).text

            await eventually(alarmed)
        assert any("RECONCILIATION FAILED" in record.message for record in caplog.records)
