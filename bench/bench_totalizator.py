"""Benchmarks of the exact-score totalizator: settlement of one million coupons, and bet intake through the API.

Settlement. Builds a draw with the standard 28 results per match and a realistic mix of coupons (mostly single
lines, systems of up to 108 lines; five currencies; popular scores picked more often), then times

- `settle`: the service's settlement, counting lines per number right without expanding coupons;
- `settle_by_expansion` on a subset: the naive settlement that enumerates every line of every coupon;
- optionally (--files) writing and reading the published bet file (T-8.3), as the verifier does.

Goal: 1,000,000 coupons settled in under 10 s on a 2-core machine.

Intake. Coupons placed through `POST /internal/v1/draws/{id}/coupons` by concurrent clients, in-process (ASGI,
no network), on SQLite files (default) or PostgreSQL (--postgres, the test server): once with the real wallet
app in-process taking every stake (its own database), once with a wallet that answers at once, to show the
totalizator's own share of the cost. Besides coupons/s and latency it reports the process's CPU ms per coupon
and the statements and transactions per coupon sent to each database: figures that a machine loaded by other
work changes far less than rates.

Payouts. The same draw, with --payout-coupons coupons placed through the real wallet, is cancelled
(`POST /internal/v1/draws/{id}/cancel`): the call returns once every coupon is refunded through the wallet, so
its time is what paying the coupons of a draw costs (a settlement's payouts go the same way).

    uv run python bench/bench_totalizator.py [--coupons 1000000] [--naive-subset 20000] [--files]
        [--intake-coupons 2000] [--intake-concurrency 16] [--intake-wallet both|real|instant]
        [--payout-coupons 5000] [--postgres]
        [--only settlement|intake|payouts]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import math
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any, TypeVar

import httpx
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.internal_client import InternalClient
from platform_kit.testing import DatabaseTraffic, create_database, drop_database
from sqlalchemy.engine import make_url
from totalizator.adapters.wallet_client import HttpWallet
from totalizator.app import create_app
from totalizator.domain import (
    Coupon,
    CurrencyTerms,
    Draw,
    Match,
    option_for_score,
    settle,
    settle_by_expansion,
    standard_options,
)
from totalizator.files import read_bets, write_bets
from totalizator.service.wallet import Stake, WalletPort, WalletRefused
from totalizator.settings import Settings
from wallet.app import create_app as create_wallet_app
from wallet.settings import Settings as WalletSettings

T = TypeVar("T")
CLOSE_AT = datetime(2030, 6, 10, 20, 0, tzinfo=UTC)
# (currency, minimum stake in minor units, USD rate, share of coupons)
CURRENCIES = [
    ("USD", 10, "1", 40),
    ("EUR", 10, "1.0843", 25),
    ("GBP", 10, "1.2712", 10),
    ("RUB", 1000, "0.010870", 20),
    ("JPY", 15, "0.006700", 5),
]
STAKE_MULTIPLIERS = [(1, 30), (2, 20), (5, 20), (10, 15), (20, 8), (50, 5), (100, 2)]
# Share of coupons by shape: the number of matches with several picks and how many picks each.
SHAPES = [((), 70), ((2,), 10), ((2, 2), 7), ((3,), 4), ((2, 2, 2), 3), ((3, 3), 2), ((2, 2, 2, 2), 2),
          ((3, 3, 2), 1), ((4, 3, 2, 2), 0.5), ((3, 3, 3, 2, 2), 0.5)]  # fmt: skip


def score_weights(options: tuple[str, ...]) -> list[float]:
    """How often each option is the result (and is picked): independent Poisson goals, 1.5 home, 1.1 away.

    Floats here only weight random choices; no money is involved.
    """
    weights = dict.fromkeys(options, 0.0)
    for home in range(12):
        for away in range(12):
            probability = math.exp(-2.6) * 1.5**home * 1.1**away / (math.factorial(home) * math.factorial(away))
            weights[option_for_score(options, home, away)] += probability
    return [weights[option] for option in options]


def build_draw(rng: random.Random) -> Draw:
    options = standard_options()
    weights = score_weights(options)
    matches = tuple(
        Match(no, f"Home {no}", f"Away {no}", CLOSE_AT + timedelta(hours=no), options,
              result=rng.choices(options, weights)[0])
        for no in range(1, 9)
    )  # fmt: skip
    currencies = tuple(CurrencyTerms(code, minimum, Fraction(rate)) for code, minimum, rate, _ in CURRENCIES)
    return Draw("bench", CLOSE_AT, matches, currencies, jackpot_carried_usd=Fraction(250_000))


def weighted(rng: random.Random, table: Sequence[tuple[T, float]], k: int) -> list[T]:
    values, weights = zip(*table, strict=True)
    return rng.choices(values, weights, k=k)


def build_coupons(draw: Draw, rng: random.Random, count: int) -> list[Coupon]:
    options = draw.matches[0].options
    cumulative = list(itertools.accumulate(score_weights(options)))
    single_bits = [1 << i for i in range(len(options))]
    picks_by_match = [rng.choices(single_bits, cum_weights=cumulative, k=count) for _ in draw.matches]
    shapes = weighted(rng, SHAPES, count)
    currencies = weighted(
        rng, [(terms, share) for terms, (*_, share) in zip(draw.currencies, CURRENCIES, strict=True)], count
    )
    multipliers = weighted(rng, STAKE_MULTIPLIERS, count)
    coupons = []
    for n, (shape, terms, multiplier) in enumerate(zip(shapes, currencies, multipliers, strict=True)):
        picks = [column[n] for column in picks_by_match]
        if shape:  # a system: several picks on some matches
            for match_index, picked in zip(rng.sample(range(len(picks)), len(shape)), shape, strict=True):
                mask = 0
                while mask.bit_count() < picked:
                    mask |= rng.choices(single_bits, cum_weights=cumulative)[0]
                picks[match_index] = mask
        amount = terms.min_stake * math.prod(shape) * multiplier
        coupons.append(Coupon(f"c{n:07d}", terms.currency, amount, tuple(picks)))
    return coupons


def timed(action: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def settlement_benchmark(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    draw = build_draw(rng)
    coupons, build_time = timed(lambda: build_coupons(draw, rng, args.coupons))
    bets = sum(coupon.bets for coupon in coupons)
    singles = sum(coupon.bets == 1 for coupon in coupons)
    print(f"draw: 8 matches x {len(draw.matches[0].options)} results, results "
          f"{' '.join(m.result or '-' for m in draw.matches)}")  # fmt: skip
    print(f"coupons: {len(coupons):,} ({singles / len(coupons):.0%} single-line), bets (lines): {bets:,}, "
          f"currencies: {', '.join(c.currency for c in draw.currencies)}; built in {build_time:.1f} s (not timed)")  # fmt: skip

    settlement, settle_time = timed(lambda: settle(draw, coupons))
    assert settlement.money_in_usd == settlement.money_out_usd

    subset = coupons[: args.naive_subset]
    subset_counting, subset_counting_time = timed(lambda: settle(draw, subset))
    subset_naive, naive_time = timed(lambda: settle_by_expansion(draw, subset))
    assert subset_naive == subset_counting, "counting and expansion disagree"
    subset_bets = sum(coupon.bets for coupon in subset)

    rows = [
        ("settle (counting), all coupons", len(coupons), bets, settle_time),
        ("settle (counting), subset", len(subset), subset_bets, subset_counting_time),
        ("settle_by_expansion (naive), subset", len(subset), subset_bets, naive_time),
        ("naive extrapolated to all coupons", len(coupons), bets, naive_time * len(coupons) / len(subset)),
    ]
    if args.files:
        buffer = io.StringIO()
        _, write_time = timed(lambda: write_bets(draw, coupons, buffer))
        buffer.seek(0)
        read, read_time = timed(lambda: read_bets(draw, buffer))
        assert read == coupons
        rows += [("write bet file (CSV)", len(coupons), bets, write_time),
                 ("read bet file (CSV, checked)", len(coupons), bets, read_time)]  # fmt: skip

    print()
    print(f"{'step':<40}{'coupons':>12}{'bets':>14}{'seconds':>10}{'µs/coupon':>11}")
    for step, count, lines, seconds in rows:
        print(f"{step:<40}{count:>12,}{lines:>14,}{seconds:>10.2f}{seconds / count * 1e6:>11.2f}")
    print()
    ratio = (naive_time / len(subset)) / (settle_time / len(coupons))
    print(f"naive expansion / counting, per coupon: {ratio:,.0f}x "
          f"(same subset: {naive_time / subset_counting_time:,.0f}x)")  # fmt: skip
    if len(coupons) < 1_000_000:
        verdict = f"not measured: run with --coupons 1000000 ({settle_time:.2f} s for {len(coupons):,})"
    else:
        verdict = f"{'MET' if settle_time < 10 else 'MISSED'} ({settle_time:.2f} s for {len(coupons):,})"
    print(f"goal, 1,000,000 coupons settled in < 10 s: {verdict}")
    print(f"winning coupons: {len(settlement.payouts):,}; pool USD {float(settlement.pool_usd):,.2f}; "
          f"jackpot next USD {float(settlement.jackpot.next_usd):,.2f}")  # fmt: skip


# -- bet intake through the API --------------------------------------------------------------------------------
TOKEN = "bench-token"
INTAKE_NOW = datetime(2030, 6, 1, 12, 0, tzinfo=UTC)
INTAKE_CLOSE = INTAKE_NOW + timedelta(days=1)
STAFF = {"X-Internal-Token": TOKEN, "X-Principal-Role": "admin", "X-Principal-Id": "bench"}
# (currency, minimum stake, USD rate): what the players stake in; each is funded in both.
INTAKE_CURRENCIES = [("USD", "0.10", "1"), ("EUR", "0.10", "1.0843")]
PLAYERS = 200


class InstantWallet:
    """A wallet that takes every stake at once: what intake costs the totalizator alone."""

    def __init__(self) -> None:
        self.operations = itertools.count(1)

    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        return [next(self.operations) for _ in stakes]


@dataclass
class IntakeResult:
    label: str
    coupons: int
    seconds: float
    latencies: list[float]
    refused: int = 0  # 503s (intake_busy, database_busy, payment_pending), each retried with the same key
    cpu_seconds: float = 0.0  # the whole process: the totalizator, the wallet in-process and the clients
    #: Per database (totalizator, wallet): statements and committed transactions while the coupons were placed.
    statements: dict[str, int] = field(default_factory=dict)
    transactions: dict[str, int] = field(default_factory=dict)


@asynccontextmanager
async def databases(postgres: bool) -> AsyncIterator[tuple[str, str]]:
    """Fresh, empty databases for the totalizator and the wallet."""
    if postgres:
        urls = (await create_database(), await create_database())
        try:
            yield urls
        finally:
            for url in urls:
                await drop_database(url)
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite+aiosqlite:///{folder}/totalizator.db", f"sqlite+aiosqlite:///{folder}/wallet.db"


@asynccontextmanager
async def running_apps(
    totalizator_url: str, wallet_url: str, *, real_wallet: bool
) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """The totalizator (and the wallet), in-process; yields HTTP clients to both."""
    wallet_app = create_wallet_app(
        WalletSettings(
            database_url=wallet_url,
            internal_token=TOKEN,
            reconciliation_interval_seconds=3600.0,
            hold_sweep_interval_seconds=3600.0,
        ),
        bus=InMemoryBus(),
    )
    async with wallet_app.router.lifespan_context(wallet_app):
        # The draw's transfers (the payouts benchmark) go through the client; the stakes through the port.
        client = InternalClient("http://wallet", TOKEN, transport=httpx.ASGITransport(app=wallet_app))
        port: WalletPort = HttpWallet(client) if real_wallet else InstantWallet()
        app = create_app(
            Settings(
                database_url=totalizator_url, internal_token=TOKEN, tick_interval_seconds=3600.0, keep_draw_open=False
            ),
            bus=InMemoryBus(),
            clock=FrozenClock(INTAKE_NOW),
            wallet=port,
            wallet_client=client,
        )
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://totalizator", timeout=120
            ) as http,
            httpx.AsyncClient(transport=httpx.ASGITransport(app=wallet_app), base_url="http://wallet") as wallet,
        ):
            yield http, wallet


async def open_intake_draw(http: httpx.AsyncClient) -> None:
    body = {
        "draw_id": "bench",
        "close_at": INTAKE_CLOSE.isoformat(),
        "matches": [
            {"home": f"Home {no}", "away": f"Away {no}", "kickoff": (INTAKE_CLOSE + timedelta(hours=no)).isoformat()}
            for no in range(1, 9)
        ],
        "currencies": [{"currency": c, "min_stake": m, "usd_rate": r} for c, m, r in INTAKE_CURRENCIES],
    }
    for path, payload in [("/internal/v1/draws", body), ("/internal/v1/draws/bench/announce", None)]:
        response = await http.post(path, json=payload, headers=STAFF)
        assert response.status_code in (200, 201), response.text


async def fund_players(wallet: httpx.AsyncClient) -> None:
    partner = {"X-Internal-Token": TOKEN, "X-Concessionaire-Id": "c1"}
    for player in range(PLAYERS):
        for currency, *_ in INTAKE_CURRENCIES:
            for path, body in [
                (f"/internal/v1/partner/players/p{player}/accounts", {"currency": currency}),
                (f"/internal/v1/partner/players/p{player}/deposits", {"currency": currency, "amount": 10**9}),
            ]:
                headers = {**partner, "Idempotency-Key": uuid.uuid4().hex}
                response = await wallet.post(path, json=body, headers=headers)
                assert response.status_code == 201, response.text


def intake_bodies(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Coupons as players send them: mostly single lines, some systems, popular scores more often."""
    options = standard_options()
    weights = score_weights(options)
    bodies = []
    for n in range(count):
        shape = weighted(rng, SHAPES, 1)[0]
        picks = [[rng.choices(options, weights)[0]] for _ in range(8)]
        for match_index, picked in zip(rng.sample(range(8), len(shape)), shape, strict=True):
            picks[match_index] = rng.sample(options, picked)
        currency = INTAKE_CURRENCIES[rng.random() < 0.4][0]
        amount = 10 * math.prod(shape) * weighted(rng, STAKE_MULTIPLIERS, 1)[0]
        bodies.append(
            {"player_id": f"p{n % PLAYERS}", "birth_date": "1990-05-17", "currency": currency, "amount": amount,
             "picks": picks}
        )  # fmt: skip
    return bodies


async def place_coupons(http: httpx.AsyncClient, bodies: list[dict[str, Any]], concurrency: int) -> IntakeResult:
    """Each client places its coupons one after the other; a 503 (overload, or a stake not yet confirmed) is
    retried after its Retry-After under the same key, as a well-behaved gateway does, and counted."""
    queue = iter(bodies)
    latencies: list[float] = []
    refused = 0

    async def client() -> None:
        nonlocal refused
        for body in queue:
            started = time.perf_counter()
            headers = {"X-Internal-Token": TOKEN, "Idempotency-Key": uuid.uuid4().hex}
            response = await http.post("/internal/v1/draws/bench/coupons", json=body, headers=headers)
            while response.status_code == 503:
                refused += 1
                await asyncio.sleep(float(response.headers["Retry-After"]))
                response = await http.post("/internal/v1/draws/bench/coupons", json=body, headers=headers)
            assert response.status_code in (200, 201), response.text
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    return IntakeResult("", len(bodies), time.perf_counter() - started, latencies, refused=refused)


async def intake_run(args: argparse.Namespace, *, real_wallet: bool) -> IntakeResult:
    bodies = intake_bodies(args.intake_coupons, random.Random(args.seed))
    async with (
        databases(args.postgres) as (totalizator_url, wallet_url),
        running_apps(totalizator_url, wallet_url, real_wallet=real_wallet) as (http, wallet),
    ):
        await open_intake_draw(http)
        if real_wallet:
            await fund_players(wallet)
        await place_coupons(http, bodies[: max(1, len(bodies) // 20)], args.intake_concurrency)  # warm-up
        names = {make_url(totalizator_url).database or "": "totalizator", make_url(wallet_url).database or "": "wallet"}
        cpu = time.process_time()
        with DatabaseTraffic() as traffic:
            result = await place_coupons(http, bodies, args.intake_concurrency)
        result.cpu_seconds = time.process_time() - cpu
        result.statements = {label: traffic.statements[name] for name, label in names.items()}
        result.transactions = {label: traffic.commits[name] for name, label in names.items()}
    result.label = "real wallet in-process" if real_wallet else "instant wallet (totalizator alone)"
    return result


def intake_benchmark(args: argparse.Namespace) -> None:
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(f"bet intake through POST /internal/v1/draws/{{id}}/coupons: in-process ASGI, {database}, "
          f"{args.intake_concurrency} concurrent clients, {args.intake_coupons:,} coupons (after a warm-up)")  # fmt: skip
    wallets = {"both": (True, False), "real": (True,), "instant": (False,)}[args.intake_wallet]
    results = [asyncio.run(intake_run(args, real_wallet=real)) for real in wallets]
    print()
    print(f"{'intake':<40}{'coupons':>9}{'seconds':>9}{'coupons/s':>11}{'p50 ms':>8}{'p99 ms':>8}{'CPU ms/c':>10}"
          f"{'toto stmt/tx per c':>20}{'wallet stmt/tx per c':>22}{'503s':>6}")  # fmt: skip
    for r in results:
        p50 = statistics.median(r.latencies) * 1000
        p99 = statistics.quantiles(r.latencies, n=100)[-1] * 1000
        per_coupon = {
            db: f"{r.statements.get(db, 0) / r.coupons:.1f} / {r.transactions.get(db, 0) / r.coupons:.2f}"
            for db in ("totalizator", "wallet")
        }
        print(f"{r.label:<40}{r.coupons:>9,}{r.seconds:>9.2f}{r.coupons / r.seconds:>11.0f}{p50:>8.1f}{p99:>8.1f}"
              f"{r.cpu_seconds / r.coupons * 1000:>10.2f}{per_coupon['totalizator']:>20}{per_coupon['wallet']:>22}"
              f"{r.refused:>6}")  # fmt: skip


async def payout_run(args: argparse.Namespace) -> float:
    """Seconds to refund every coupon of a cancelled draw through the real wallet."""
    bodies = intake_bodies(args.payout_coupons, random.Random(args.seed))
    async with (
        databases(args.postgres) as (totalizator_url, wallet_url),
        running_apps(totalizator_url, wallet_url, real_wallet=True) as (http, wallet),
    ):
        await open_intake_draw(http)
        await fund_players(wallet)
        await place_coupons(http, bodies, args.intake_concurrency)
        started = time.perf_counter()
        response = await http.post("/internal/v1/draws/bench/cancel", json={"reason": "bench"}, headers=STAFF)
        seconds = time.perf_counter() - started
        assert response.status_code == 200 and response.json()["status"] == "cancelled", response.text
    return seconds


def payout_benchmark(args: argparse.Namespace) -> None:
    database = "PostgreSQL" if args.postgres else "SQLite"
    seconds = asyncio.run(payout_run(args))
    print(f"refunds of a cancelled draw through the real wallet in-process, {database}: "
          f"{args.payout_coupons:,} coupons in {seconds:.2f} s, {args.payout_coupons / seconds:,.0f} payments/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coupons", type=int, default=1_000_000)
    parser.add_argument("--naive-subset", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2010)
    parser.add_argument("--files", action="store_true", help="also time writing and reading the bet file")
    parser.add_argument("--intake-coupons", type=int, default=2_000)
    parser.add_argument("--intake-concurrency", type=int, default=16)
    parser.add_argument(
        "--intake-wallet", choices=["both", "real", "instant"], default="both", help="which wallet intake runs with"
    )
    parser.add_argument("--payout-coupons", type=int, default=5_000)
    parser.add_argument("--postgres", action="store_true", help="intake and payouts on PostgreSQL (the test server)")
    parser.add_argument("--only", choices=["settlement", "intake", "payouts"])
    args = parser.parse_args()
    benchmarks = {"settlement": settlement_benchmark, "intake": intake_benchmark, "payouts": payout_benchmark}
    for name, benchmark in benchmarks.items():
        if args.only in (None, name):
            benchmark(args)
            print()


if __name__ == "__main__":
    main()
