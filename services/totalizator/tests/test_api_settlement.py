"""A whole draw through the API, from announcement to payouts in the wallet; refunds; cancellation; resuming
an interrupted settlement (T-3 to T-6, T-5.5, T-8.4)."""

from __future__ import annotations

import json
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from totalizator import cli
from totalizator.domain.currency import format_minor, minor_unit_exponent
from totalizator.files.report import usd
from totalizator_harness import CLOSE_AT, Platform, PlatformFactory, another_instance, picks

ALL_ONE_NIL = [(1, 0)] * 8
RIGHT, WRONG = "1:0", "0:0"


def right_on(count: int, *, first: str | list[str] = RIGHT) -> list[list[str]]:
    """Right on the first `count` matches (all end 1:0), wrong on the others."""
    chosen: list[str | list[str]] = [first, *[RIGHT] * (count - 1)] if count else []
    return picks(*chosen, *[WRONG] * (8 - len(chosen)))


# (player, currency, amount in minor units, picks): a mix of currencies, numbers right and a system coupon.
COUPONS = [
    ("p1", "USD", 1_000, right_on(6)),
    ("p2", "EUR", 500, right_on(7)),
    ("p3", "JPY", 300, right_on(5, first=["1:0", "2:1"])),  # two lines: 5 and 4 right
    ("p4", "USD", 100, right_on(3)),
    ("p5", "USD", 50, right_on(2)),
    ("p6", "EUR", 2_000, right_on(0)),
    ("p1", "USD", 10_000, right_on(1)),
]
DEPOSITS = {("p1", "USD"): 20_000, ("p2", "EUR"): 1_000, ("p3", "JPY"): 1_000, ("p4", "USD"): 1_000,
            ("p5", "USD"): 1_000, ("p6", "EUR"): 5_000}  # fmt: skip


async def place_all(platform: Platform) -> dict[str, tuple[str, str]]:
    """Fund the players, place COUPONS; coupon id → (player, currency)."""
    for (player, currency), amount in DEPOSITS.items():
        await platform.fund(player, amount, currency)
    placed = {}
    for player, currency, amount, chosen in COUPONS:
        response = await platform.coupon(player, chosen, amount, currency=currency)
        assert response.status_code == 201, response.text
        placed[response.json()["coupon_id"]] = (player, currency)
    return placed


async def assert_paid_once(platform: Platform, placed: dict[str, tuple[str, str]], transfers: list[dict]) -> None:
    """Every player's balance is their deposit, less their stakes, plus their coupons' payouts: exactly once."""
    for (player, currency), deposit in DEPOSITS.items():
        staked = sum(amount for p, c, amount, _ in COUPONS if (p, c) == (player, currency))
        won = sum(
            t["amount"] for t in transfers if t["kind"] == "payout" and placed[t["coupon_id"]] == (player, currency)
        )
        assert await platform.balance(player, currency) == deposit - staked + won, player


def verify(tmp_path: Path, draw_file: dict, bets_csv: str, capsys: pytest.CaptureFixture[str]) -> dict:
    """`totalizator verify --json` on the published files, as anyone can run it (T-8.4)."""
    (tmp_path / "draw.json").write_text(json.dumps(draw_file), encoding="utf-8")
    (tmp_path / "bets.csv").write_text(bets_csv, encoding="utf-8")
    capsys.readouterr()
    assert (
        cli.main(["verify", "--draw", str(tmp_path / "draw.json"), "--bets", str(tmp_path / "bets.csv"), "--json"]) == 0
    )
    report: dict = json.loads(capsys.readouterr().out)
    return report


async def test_t6_a_whole_draw_pays_exactly_what_the_verifier_computes_from_the_published_files(
    platform: Platform, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await platform.open_draw(topup="1000.00", reason="launch promotion")
    placed = await place_all(platform)
    await platform.close()
    await platform.results("2030-23", ALL_ONE_NIL)
    settled = await platform.staff("POST", "/draws/2030-23/settle")
    assert settled.status_code == 200, settled.text
    assert settled.json()["status"] == "settled" and settled.json()["transfers"]["pending"] == 0

    draw_file = (await platform.http.get("/v1/draws/2030-23/files/draw.json")).json()
    assert [m["result"] for m in draw_file["matches"]] == ["1:0"] * 8  # T-8.1: results once settled
    bets_csv = (await platform.http.get("/v1/draws/2030-23/files/bets.csv")).text
    report = verify(tmp_path, draw_file, bets_csv, capsys)
    assert (await platform.http.get("/v1/draws/2030-23/settlement")).json() == report

    # Every payout the verifier computes is the one the wallet made, in the coupon's currency (T-6.1) ...
    expected = {p["coupon_id"]: (p["currency"], p["amount"]) for p in report["payouts"]}
    transfers = (await platform.staff("GET", "/draws/2030-23/transfers")).json()
    paid = {
        t["coupon_id"]: (t["currency"], format_minor(t["amount"], minor_unit_exponent(t["currency"])))
        for t in transfers
        if t["kind"] == "payout"
    }
    assert paid == expected and len(paid) == 5  # 7, 6, 5+4, 3 and 2 right win (T-1.2)
    # ... and is in the players' accounts, once.
    await assert_paid_once(platform, placed, transfers)

    # The pools are empty, the ledger balances, and the next jackpot is carried (T-3.2, T-4).
    assert set((await platform.pools()).values()) == {0}
    assert await platform.reconciled()
    assert all(t["status"] == "done" for t in transfers)
    assert {t["kind"] for t in transfers} >= {"organizer_share", "rounding_remainder", "jackpot_release"}
    # Nobody has 8 right: the 7s share 5% of the jackpot, the rest carries with 70% of category 1 (T-3.2, T-4.3).
    # The service carries it exactly; the verifier prints it to the micro-dollar.
    carried = (await platform.http.get("/v1/jackpot")).json()["jackpot_usd"]
    assert carried == settled.json()["next_jackpot_usd"] == "954.9216125"
    assert usd(Fraction(carried)) == report["jackpot"]["next_usd"]
    (event,) = await platform.events("totalizator.draw.settled")
    assert event["winning_coupons"] == 5 and event["refunded"] is False
    assert event["paid_usd"] == report["paid_usd"] and event["next_jackpot_usd"] == settled.json()["next_jackpot_usd"]

    # T-4.1: the next draw is announced with that jackpot.
    following = await platform.open_draw("2030-24", close_at=CLOSE_AT + timedelta(days=7))
    assert following["jackpot_carried_usd"] == settled.json()["next_jackpot_usd"]
    assert (await platform.http.get("/v1/jackpot")).json()["jackpot_usd"] == "0.00"


async def test_settling_needs_every_valid_result_and_is_idempotent(platform: Platform) -> None:
    await platform.open_draw()
    await place_all(platform)
    early = await platform.staff("POST", "/draws/2030-23/settle")
    assert early.status_code == 409 and early.json()["code"] == "draw_state_conflict"
    await platform.close()
    await platform.results("2030-23", [*ALL_ONE_NIL[:7], None])
    missing = await platform.staff("POST", "/draws/2030-23/settle")
    assert missing.status_code == 409 and missing.json()["code"] == "cannot_settle"
    await platform.results("2030-23", ALL_ONE_NIL)
    first = await platform.staff("POST", "/draws/2030-23/settle")
    again = await platform.staff("POST", "/draws/2030-23/settle")
    assert first.json()["status"] == again.json()["status"] == "settled"
    assert len(await platform.events("totalizator.draw.settled")) == 1
    assert (await platform.staff("PUT", "/draws/2030-23/matches/1/result", {"home": 0, "away": 0})).status_code == 409


async def test_t5_5_with_three_void_matches_settlement_refunds_every_coupon(platform: Platform) -> None:
    await platform.open_draw(topup="50.00", reason="weekend special")
    await place_all(platform)
    await platform.close()
    for no in (6, 7, 8):
        await platform.staff("POST", f"/draws/2030-23/matches/{no}/void", {"reason": "stadium closed"})
    await platform.results("2030-23", ALL_ONE_NIL[:5])
    settled = await platform.staff("POST", "/draws/2030-23/settle")
    assert settled.json()["status"] == "settled" and settled.json()["next_jackpot_usd"] == "50.00"
    for (player, currency), deposit in DEPOSITS.items():
        assert await platform.balance(player, currency) == deposit
    assert set((await platform.pools()).values()) == {0}
    (event,) = await platform.events("totalizator.draw.settled")
    assert event["refunded"] is True and event["winning_coupons"] == len(COUPONS)
    assert (await platform.http.get("/v1/jackpot")).json()["jackpot_usd"] == "50.00"  # carried whole


async def test_t5_5_a_cancelled_draw_refunds_every_coupon_and_keeps_its_jackpot(platform: Platform) -> None:
    await platform.open_draw(topup="20.00", reason="promotion")
    await place_all(platform)
    no_reason = await platform.staff("POST", "/draws/2030-23/cancel", {})
    assert no_reason.status_code == 422
    cancelled = await platform.staff("POST", "/draws/2030-23/cancel", {"reason": "competition suspended"})
    assert cancelled.json()["status"] == "cancelled" and cancelled.json()["cancel_reason"] == "competition suspended"
    assert cancelled.json()["next_jackpot_usd"] == "20.00"
    for (player, currency), deposit in DEPOSITS.items():
        assert await platform.balance(player, currency) == deposit
    # Refunded in one wallet call per currency (a batch holds 500), p1's two USD coupons in the same one.
    refunds = [t for t in (await platform.staff("GET", "/draws/2030-23/transfers")).json() if t["kind"] == "refund"]
    assert len(refunds) == len(COUPONS)
    assert {(t["currency"], t["batch_no"]) for t in refunds} == {("USD", 1), ("EUR", 2), ("JPY", 3)}
    assert len({t["operation_id"] for t in refunds}) == 3
    (event,) = await platform.events("totalizator.draw.cancelled")
    assert event == {"draw_id": "2030-23", "reason": "competition suspended", "refunded_coupons": len(COUPONS)}
    late = await platform.coupon("p1", right_on(8), 100)
    assert late.status_code == 409 and late.json()["code"] == "draw_cancelled"
    assert (await platform.http.get("/v1/jackpot")).json()["jackpot_usd"] == "20.00"


class FailsAfter(httpx.AsyncBaseTransport):
    """Under the wallet client: makes `calls` payment calls, then makes one more whose answer is lost, and is
    down for the draw's transfers until told otherwise (the stakes go through)."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.down = False
        self.inner: httpx.AsyncBaseTransport | None = None

    def around(self, transport: httpx.AsyncBaseTransport) -> FailsAfter:
        self.inner = transport
        return self

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert self.inner is not None
        path = request.url.path
        if "/draws/" not in path or path.endswith(("/stakes", "/stake-batches")):
            return await self.inner.handle_async_request(request)
        if self.down:
            raise httpx.ConnectError("wallet down", request=request)
        response = await self.inner.handle_async_request(request)
        if path.endswith(("/payouts", "/refunds")):
            if self.calls == 0:
                self.calls, self.down = -1, True
                raise httpx.ReadTimeout("answer lost", request=request)
            self.calls -= 1
        return response


async def test_t6_3_an_interrupted_settlement_resumes_after_a_restart_without_paying_anyone_twice(
    start_platform: PlatformFactory,
) -> None:
    faulty = FailsAfter(1)
    async with start_platform(wrap_transport=faulty.around, transfer_concurrency=1, payment_batch_size=2) as platform:
        await platform.open_draw()
        placed = await place_all(platform)
        await platform.close()
        await platform.results("2030-23", ALL_ONE_NIL)
        interrupted = (await platform.staff("POST", "/draws/2030-23/settle")).json()
        assert interrupted["status"] == "settling"
        assert await platform.outbox_rows("totalizator.coupon.settled") == 0, "no coupon told before it is paid"
        payouts = [t for t in (await platform.staff("GET", "/draws/2030-23/transfers")).json() if t["kind"] == "payout"]
        # Three USD winners (p1, p4, p5) in batches of two, then EUR (p2) and JPY (p3): four wallet calls. The
        # first batch is recorded; the second was made but its answer lost; the others wait.
        assert [(placed[t["coupon_id"]][0], t["batch_no"], t["status"]) for t in payouts] == [
            ("p1", 1, "done"),
            ("p4", 1, "done"),
            ("p5", 2, "pending"),
            ("p2", 3, "pending"),
            ("p3", 4, "pending"),
        ]

        # The service comes back (a new instance: nothing in memory) with the wallet reachable again: its
        # clock resumes the pending transfers with the same idempotency keys.
        assert isinstance(faulty, FailsAfter)
        faulty.down = False
        async with another_instance(platform) as restarted:
            await restarted.clock.tick()
            await restarted.clock.tick()  # a round with nothing left to do tells nothing again
        assert (await platform.staff("GET", "/draws/2030-23")).json()["status"] == "settled"
        assert await platform.outbox_rows("totalizator.coupon.settled") == len(placed), "each coupon once"

        transfers = (await platform.staff("GET", "/draws/2030-23/transfers")).json()
        # One wallet operation per call: a batch's payouts share theirs, every other transfer has its own.
        calls = {t["idempotency_key"]: t["operation_id"] for t in transfers}
        assert len(set(calls.values())) == len(calls) == len(transfers) - 1
        assert all(t["operation_id"] == calls[t["idempotency_key"]] for t in transfers)
        await assert_paid_once(platform, placed, transfers)
        assert set((await platform.pools()).values()) == {0}
        assert await platform.reconciled()


async def test_t8_4_the_settlement_preview_is_the_settlement_and_writes_nothing(platform: Platform) -> None:
    """Issue 17: staff check categories, coefficients and the next jackpot before settling. The preview is the
    report settling then publishes (T-8.4), and previewing moves no money and changes no state."""
    await platform.open_draw(topup="1000.00", reason="launch promotion")
    await place_all(platform)
    while_open = await platform.staff("GET", "/draws/2030-23/settlement-preview")
    assert while_open.status_code == 409 and while_open.json()["code"] == "draw_state_conflict"
    await platform.close()
    await platform.results("2030-23", ALL_ONE_NIL)

    preview = await platform.staff("GET", "/draws/2030-23/settlement-preview")
    assert preview.status_code == 200, preview.text
    again = (await platform.staff("GET", "/draws/2030-23/settlement-preview")).json()
    assert again == preview.json()
    assert (await platform.staff("GET", "/draws/2030-23")).json()["status"] == "closed"
    assert await platform.events("totalizator.draw.settled") == []

    settled = await platform.staff("POST", "/draws/2030-23/settle")
    assert settled.status_code == 200, settled.text
    report = (await platform.http.get("/v1/draws/2030-23/settlement")).json()
    shown = preview.json()
    assert shown.pop("final_count") is True
    assert shown == report
