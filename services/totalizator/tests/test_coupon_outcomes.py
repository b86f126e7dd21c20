"""Each coupon's outcome on the bus once its draw is over (`totalizator.coupon.settled`, issue 16 item 2: what
partners are told of their players' coupons): one event per accepted coupon, written with the draw's own event,
its amount the payment the settlement made (T-6, T-6.1) or the refund (T-5.5), never twice (an interrupted
settlement: test_api_settlement.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

import pytest
from platform_kit.db import Database
from platform_kit.events.totalizator import CouponSettled
from platform_kit.outbox import Outbox
from platform_kit.testing import recorded_statements
from sqlalchemy import insert, select
from test_api_settlement import ALL_ONE_NIL, COUPONS, place_all
from totalizator.adapters import orm
from totalizator.adapters.orm import metadata
from totalizator.domain import CouponOutcome, coupon_outcome
from totalizator.domain.currency import format_minor, minor_unit_exponent
from totalizator.service.outcomes import publish_outcomes
from totalizator_harness import NOW, Platform

COUPON_SETTLED = CouponSettled.TYPE


async def transfers_by_coupon(platform: Platform, kind: str) -> dict[str, dict[str, Any]]:
    transfers = (await platform.staff("GET", "/draws/2030-23/transfers")).json()
    return {t["coupon_id"]: t for t in transfers if t["kind"] == kind}


def per_currency(amounts: Iterable[tuple[str, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for currency, amount in amounts:
        totals[currency] = totals.get(currency, 0) + amount
    return totals


def to_minor(currency: str, text: str) -> int:
    """A report's decimal amount back in minor units (exactly: the report prints them in full)."""
    return int(Decimal(text).scaleb(minor_unit_exponent(currency)))


async def settle_all_one_nil(platform: Platform) -> dict[str, tuple[str, str]]:
    await platform.open_draw()
    placed = await place_all(platform)
    await platform.close()
    await platform.results("2030-23", ALL_ONE_NIL)
    settled = await platform.staff("POST", "/draws/2030-23/settle")
    assert settled.json()["status"] == "settled", settled.text
    return placed


def test_t5_5_t6_a_coupon_is_won_when_paid_lost_when_not_refunded_when_the_draw_is_not_played() -> None:
    assert coupon_outcome(refunded=False, paid=120) is CouponOutcome.WON
    assert coupon_outcome(refunded=False, paid=0) is CouponOutcome.LOST
    assert coupon_outcome(refunded=True, paid=100) is CouponOutcome.REFUNDED  # T-5.5, or a cancelled draw
    with pytest.raises(ValueError):
        coupon_outcome(refunded=False, paid=-1)


async def test_t6_each_coupon_is_told_once_with_what_the_settlement_paid_it(platform: Platform) -> None:
    placed = await settle_all_one_nil(platform)
    outcomes = await platform.events(COUPON_SETTLED)
    assert sorted(o["coupon_id"] for o in outcomes) == sorted(placed), "one per coupon"
    assert [(placed[o["coupon_id"]], o["player_id"]) for o in outcomes] == [
        (placed[o["coupon_id"]], placed[o["coupon_id"]][0]) for o in outcomes
    ]
    payouts = await transfers_by_coupon(platform, "payout")
    report = (await platform.http.get("/v1/draws/2030-23/settlement")).json()
    for outcome in outcomes:
        paid = payouts.get(outcome["coupon_id"])
        assert outcome["status"] == ("won" if paid else "lost")
        assert outcome["amount"] == (paid["amount"] if paid else 0)
        assert outcome["wallet_operation_id"] == (paid["operation_id"] if paid else None)
        assert outcome["currency"] == placed[outcome["coupon_id"]][1] and outcome["draw_id"] == "2030-23"
    assert Counter(o["status"] for o in outcomes) == {"won": 5, "lost": 2}  # 7 to 2 right win (T-1.2)
    # T-6.1, T-6.3: the amounts are the verifier's payouts in each coupon's currency, and add up to what the
    # settlement paid per currency.
    shown = {
        o["coupon_id"]: (o["currency"], format_minor(o["amount"], minor_unit_exponent(o["currency"])))
        for o in outcomes
        if o["status"] == "won"
    }
    assert shown == {p["coupon_id"]: (p["currency"], p["amount"]) for p in report["payouts"]}
    paid = per_currency((o["currency"], o["amount"]) for o in outcomes)
    assert paid == per_currency((t["currency"], t["amount"]) for t in payouts.values())
    assert paid == per_currency((p["currency"], to_minor(p["currency"], p["amount"])) for p in report["payouts"])
    # Before the draw's event, which ends the draw's channel; settling again tells nothing again.
    keys = [key for key, _ in platform.bus.published if key.startswith("totalizator.")]
    assert keys.index("totalizator.draw.settled") > max(i for i, k in enumerate(keys) if k == COUPON_SETTLED)
    await platform.staff("POST", "/draws/2030-23/settle")
    assert await platform.outbox_rows(COUPON_SETTLED) == len(COUPONS)


async def test_t5_5_three_void_matches_tell_every_coupon_it_is_refunded_in_full(platform: Platform) -> None:
    await platform.open_draw()
    placed = await place_all(platform)
    await platform.close()
    for no in (6, 7, 8):
        await platform.staff("POST", f"/draws/2030-23/matches/{no}/void", {"reason": "stadium closed"})
    await platform.results("2030-23", ALL_ONE_NIL[:5])
    assert (await platform.staff("POST", "/draws/2030-23/settle")).json()["status"] == "settled"
    outcomes = await platform.events(COUPON_SETTLED)
    assert len(outcomes) == len(placed) == len(COUPONS)
    assert {o["status"] for o in outcomes} == {"refunded"}
    assert all(o["amount"] == o["stake"] for o in outcomes)
    assert sorted(o["stake"] for o in outcomes) == sorted(amount for _, _, amount, _ in COUPONS)


async def test_t5_5_a_cancelled_draw_tells_every_coupon_its_refund_once(platform: Platform) -> None:
    await platform.open_draw()
    placed = await place_all(platform)
    cancelled = await platform.staff("POST", "/draws/2030-23/cancel", {"reason": "competition suspended"})
    assert cancelled.json()["status"] == "cancelled"
    outcomes = await platform.events(COUPON_SETTLED)
    refunds = await transfers_by_coupon(platform, "refund")
    assert sorted(o["coupon_id"] for o in outcomes) == sorted(placed) == sorted(refunds)
    for outcome in outcomes:
        refund = refunds[outcome["coupon_id"]]
        assert (outcome["status"], outcome["amount"], outcome["wallet_operation_id"]) == (
            "refunded",
            refund["amount"],
            refund["operation_id"],
        )
    assert sum(o["amount"] for o in outcomes) == sum(o["stake"] for o in outcomes) == sum(a for *_, a, _ in COUPONS)
    await platform.staff("POST", "/draws/2030-23/cancel", {"reason": "again"})
    assert await platform.outbox_rows(COUPON_SETTLED) == len(COUPONS)


async def test_a_draw_of_20_000_coupons_is_told_in_two_reads_and_a_statement_per_1_000(sqlite_url: str) -> None:
    """Volume: the outcomes are read with two scans of the draw (not a query, nor a join, per coupon) and written
    with one multi-row statement per 1,000 events, in the transaction that finishes the draw. Refused coupons
    (the wallet never took their stake) are not told."""
    db = Database(sqlite_url)
    async with db.engine.begin() as connection:
        await connection.run_sync(metadata.create_all)
    coupons, payments = 20_000, range(0, 20_000, 3)
    async with db.transaction() as session:
        await session.execute(insert(orm.draws), [DRAW_ROW])
        rows = [coupon_row(n, "accepted") for n in range(coupons)] + [coupon_row(coupons, "refused")]
        await session.execute(insert(orm.coupons), rows)
        await session.execute(insert(orm.wallet_transfers), [payment_row(n) for n in payments])
    outbox = Outbox(metadata.tables["outbox"], producer="totalizator")
    try:
        with recorded_statements(db) as statements:
            async with db.transaction() as session:
                assert await publish_outcomes(session, outbox, "2030-23", refunded=False) == coupons
        reads = [sql for sql, _ in statements if sql.upper().startswith("SELECT")]
        inserts = [rows for sql, rows in statements if sql.upper().startswith("INSERT INTO OUTBOX")]
        assert len(reads) == 2 and inserts == [1_000] * 20
        async with db.sessions() as session:
            told = [
                json.loads(body)["payload"]
                for body in await session.scalars(select(metadata.tables["outbox"].c.envelope))
            ]
    finally:
        await db.dispose()
    assert len({o["coupon_id"] for o in told}) == len(told) == coupons
    assert Counter(o["status"] for o in told) == {"won": len(payments), "lost": coupons - len(payments)}
    assert sum(o["amount"] for o in told) == 700 * len(payments)  # the plan's payments, each once


DRAW_ROW = {
    "draw_id": "2030-23",
    "status": "settling",
    "close_at": NOW,
    "jackpot_carried_usd": "0",
    "jackpot_topup_usd": "0",
    "version": 1,
    "created_at": NOW,
}


def coupon_row(n: int, status: str) -> dict[str, Any]:
    return {
        "coupon_id": f"C{n:016X}",
        "draw_id": "2030-23",
        "player_id": f"p{n % 5_000}",
        "idempotency_key": str(n),
        "fingerprint": "-",
        "currency": "EUR",
        "amount": 500,
        "bets": 1,
        "picks": "1,1,1,1,1,1,1,1",
        "status": status,
        "accepted_at": NOW,
        "counted": True,
    }


def payment_row(n: int) -> dict[str, Any]:
    return {
        "draw_id": "2030-23",
        "phase": 1,
        "kind": "payout",
        "currency": "EUR",
        "amount": 700,
        "player_id": f"p{n % 5_000}",
        "coupon_id": f"C{n:016X}",
        "idempotency_key": f"totalizator:2030-23:payout:C{n:016X}",
        "batch_no": n // 1_500 + 1,
        "status": "done",
        "operation_id": n // 1_500 + 1,
    }
