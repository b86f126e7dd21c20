"""Wallet transfers per second on PostgreSQL (or SQLite standalone, `--database sqlite`), with latency percentiles.

Each operation is one idempotent command, exactly as the API runs it: key claimed, operation and transfers
appended, balances updated under the no-overdraft rule, event written to the outbox, answer stored — one
transaction. Scenarios:

- single pair: every deposit moves money between the same two accounts (one concessionaire's cash account
  and one player), so every transaction waits for the previous one's row locks: the worst case;
- many accounts: deposits between 200 disjoint pairs of accounts, picked at random;
- buy-ins, one tournament: 200 players buy into the same tournament (2 transfers each: prize part to the
  shared escrow, fee to the margin), the registration rush.

Three layers: `ledger` calls the use cases in-process (what the database and the transaction design allow), each
command alone (the idempotent executor) and through the group commit (many commands a transaction, as the routes
run deposits, withdrawals and paid entries);
`app` sends the same commands to the wallet's app in process, as uvicorn hands it a request (no socket, no HTTP
parsing): the routes' own cost — middleware, routing, dependencies, validation, the answer — over the ledger's;
`http` sends the same commands to a `platform serve wallet` process over HTTP (what callers see), from wrk (a C
load generator, when installed: it leaves the cores to the server; `--load httpx`: from this process, which then
costs as much CPU as the server does) with 16 and with 50 callers (`--http-connections`); on PostgreSQL also from
two wallet processes sharing the port (`--instances`; deployed, the wallet runs two replicas at least). The load
generator shares the machine's cores with PostgreSQL and the server.

Besides throughput and latency, each row shows the wallet process's CPU per operation (ledger and app: this
process, load generator included; http: the server processes, over the measured run alone) and, for the ledger layer, the
database round trips per operation (statements, BEGINs and COMMITs, the outbox relay's included): on a shared
machine these two move far less from run to run than the throughput does.

The peers, in the same run: PostgreSQL alone, the same number of connections committing one-row UPDATE
transactions through asyncpg (no SQLAlchemy, no wallet) on one row — the single pair's hot account — and on
rows picked at random: the ceilings the wallet's figures are to be read against.

    uv run python bench/bench_wallet.py [--seconds 4] [--concurrency 16] [--layers ledger,app,http]
        [--database postgres|sqlite] [--http-connections 16,50] [--load wrk|httpx] [--instances 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from bench_request_overhead import call as asgi_request
from platform_kit.bus import InMemoryBus
from platform_kit.testing import DatabaseTraffic, create_database, drop_database
from platform_runner import serving
from wallet.api.context import operation_body
from wallet.app import create_app
from wallet.bootstrap import Services
from wallet.domain.idempotency import fingerprint
from wallet.domain.operations import OperationKind
from wallet.service.money import CashRequest, EntryRequest
from wallet.service.posting_batches import Builder, KeyedPosting
from wallet.settings import Settings
from wrk_load import installed, run_wrk

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests-e2e"))
from harness.processes import free_port, listening_ports

PAIRS = 200
TOKEN = "dev-internal-token"
Call = Callable[[random.Random], Awaitable[None]]
Grouped = tuple[Any, Builder, str | None]


@dataclass(frozen=True)
class Result:
    layer: str
    scenario: str
    operations: int
    transfers_per_operation: int
    seconds: float
    p50_ms: float
    p99_ms: float
    cpu_seconds: float
    round_trips: int | None
    failed: int = 0
    """Answers other than 201 and socket errors (wrk): none is expected."""

    @classmethod
    def measured(
        cls,
        layer: str,
        scenario: str,
        transfers_per_operation: int,
        seconds: float,
        latencies: list[float],
        cpu_seconds: float,
        round_trips: int | None,
    ) -> Result:
        ordered = sorted(latencies)

        def at(q: float) -> float:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

        return cls(
            layer, scenario, len(ordered), transfers_per_operation, seconds, at(0.5), at(0.99), cpu_seconds, round_trips
        )

    def row(self) -> str:
        per_second = self.operations / self.seconds
        cpu = self.cpu_seconds * 1000 / self.operations
        trips = "" if self.round_trips is None else f"{self.round_trips / self.operations:.1f}"
        return (
            f"| {self.layer} | {self.scenario} | {self.operations} | {per_second:,.0f} | "
            f"{per_second * self.transfers_per_operation:,.0f} | {self.p50_ms:.1f} | {self.p99_ms:.1f} | {cpu:.2f} |"
            f" {trips} | {self.failed} |"
        )


class CpuSince:
    """The processes' CPU seconds since the last `mark()` (or since made)."""

    def __init__(self, processes: list[subprocess.Popen[bytes]]) -> None:
        self.processes = processes
        self.at = servers_cpu_seconds(processes)

    def mark(self) -> None:
        self.at = servers_cpu_seconds(self.processes)

    def seconds(self) -> float:
        return servers_cpu_seconds(self.processes) - self.at


def servers_cpu_seconds(processes: list[subprocess.Popen[bytes]]) -> float:
    """User + system CPU of the processes so far (Linux /proc)."""
    ticks = 0
    for process in processes:
        with open(f"/proc/{process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def drive(call: Call, seconds: float, concurrency: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    started = time.perf_counter()
    deadline = started + seconds

    async def worker(seed: int) -> None:
        rng = random.Random(seed)
        while time.perf_counter() < deadline:
            before = time.perf_counter()
            await call(rng)
            latencies.append(time.perf_counter() - before)

    await asyncio.gather(*(worker(seed) for seed in range(concurrency)))
    return time.perf_counter() - started, latencies


# -- the in-process layer -------------------------------------------------------------------------------------
async def command(
    wallet: Services, scope: str, path: str, body: dict[str, Any], act: Any, grouped: Grouped | None
) -> None:
    """`act` run alone (the idempotent executor), or, given `grouped` (its request, its builder and the acting
    concessionaire), through the group commit as the routes run it."""

    async def run(session: Any) -> dict[str, Any]:
        return operation_body(await act(session))

    key, request_fingerprint = uuid.uuid4().hex, fingerprint("POST", path, body)
    if grouped is None:
        outcome = await wallet.executor.run(scope, key, request_fingerprint, 201, run)
    else:
        request, builder, acting = grouped
        posting = KeyedPosting(scope, key, request_fingerprint, request, builder, acting, operation_body)
        outcome = await wallet.group_commit.post(posting, run)
    assert outcome.status == 201, outcome.body


def ledger_deposit(wallet: Services, pairs: int, grouped: bool) -> Call:
    async def call(rng: random.Random) -> None:
        n = rng.randrange(pairs)
        body = {"currency": "EUR", "amount": 1, "reference": None}
        request = CashRequest(OperationKind.DEPOSIT, f"c{n}", f"p{n}", "EUR", 1, None)

        async def act(session: Any) -> Any:
            return await wallet.money.cash(session, request)

        path = f"/v1/partner/players/p{n}/deposits"
        group = (request, wallet.money.cash_operations, f"c{n}") if grouped else None
        await command(wallet, f"partner:c{n}", path, body, act, group)

    return call


def ledger_buy_in(wallet: Services, grouped: bool) -> Call:
    async def call(rng: random.Random) -> None:
        player = f"p{rng.randrange(PAIRS)}"
        body = {"kind": "buy_in", "player_id": player, "currency": "EUR", "prize_part": 90, "fee": 10,
                "jackpot_contribution": 0}  # fmt: skip
        request = EntryRequest(OperationKind.BUY_IN, "rush", player, "EUR", 90, 10, 0, None)

        async def act(session: Any) -> Any:
            return await wallet.money.paid_entry(session, request)

        group = (request, wallet.money.entry_operations, None) if grouped else None
        await command(wallet, "internal", "/v1/tournaments/rush/entries", body, act, group)

    return call


# -- the requests the app and HTTP layers send --------------------------------------------------------------------
Request = tuple[str, dict[str, Any], dict[str, str]]
"""A POST's path, JSON body and headers."""
MakeRequest = Callable[[random.Random], Request]


def deposit_request(pairs: int) -> MakeRequest:
    """A partner's deposit into one of `pairs` players' accounts, from its concessionaire's cash account."""

    def make(rng: random.Random) -> Request:
        n = rng.randrange(pairs)
        headers = {"X-Internal-Token": TOKEN, "Idempotency-Key": uuid.uuid4().hex, "X-Concessionaire-Id": f"c{n}"}
        return f"/internal/v1/partner/players/p{n}/deposits", {"currency": "EUR", "amount": 1}, headers

    return make


def buy_in_request(rng: random.Random) -> Request:
    """A buy-in of one of the players into the one tournament."""
    body = {"kind": "buy_in", "player_id": f"p{rng.randrange(PAIRS)}", "currency": "EUR", "prize_part": 90, "fee": 10}
    return (
        "/internal/v1/tournaments/rush/entries",
        body,
        {"X-Internal-Token": TOKEN, "Idempotency-Key": uuid.uuid4().hex},
    )


# -- the app layer: the routes in process -----------------------------------------------------------------------
def over_app(app: Any, make: MakeRequest) -> Call:
    async def call(rng: random.Random) -> None:
        path, body, headers = make(rng)
        raw = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
        status = await asgi_request(app, "POST", path, body=json.dumps(body).encode(), headers=raw)
        assert status == 201, status

    return call


# -- the HTTP layer ---------------------------------------------------------------------------------------------
def over_http(http: httpx.AsyncClient, make: MakeRequest) -> Call:
    async def call(rng: random.Random) -> None:
        path, body, headers = make(rng)
        response = await http.post(path, json=body, headers=headers)
        assert response.status_code == 201, response.text

    return call


# The same requests from wrk: a deposit into one of BENCH_PAIRS players' accounts (from its concessionaire's cash
# account), or a buy-in of one of them when BENCH_BUY_IN is set, each under a new Idempotency-Key.
WRK_SCRIPT = """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local run = os.getenv("BENCH_RUN") .. "-" .. os.getenv("WRK_PHASE")
local pairs = tonumber(os.getenv("BENCH_PAIRS"))
local buy_in = os.getenv("BENCH_BUY_IN") ~= ""
local sent = 0
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Internal-Token"] = "dev-internal-token"
request = function()
  sent = sent + 1
  local n = math.random(0, pairs - 1)
  wrk.headers["Idempotency-Key"] = run .. "-" .. tid .. "-" .. sent
  if buy_in then
    local body = '{"kind":"buy_in","player_id":"p' .. n .. '","currency":"EUR","prize_part":90,"fee":10}'
    return wrk.format("POST", "/internal/v1/tournaments/rush/entries", nil, body)
  end
  wrk.headers["X-Concessionaire-Id"] = "c" .. n
  return wrk.format("POST", "/internal/v1/partner/players/p" .. n .. "/deposits", nil, '{"currency":"EUR","amount":1}')
end
"""


async def serve(url: str, instances: int) -> tuple[list[subprocess.Popen[bytes]], httpx.AsyncClient]:
    """`instances` wallet processes on one database, sharing one port (`WALLET_REUSE_PORT`: the kernel spreads the
    connections over them, as the deployment's Service spreads them over its replicas)."""
    port = free_port()
    env = os.environ | {
        "WALLET_DATABASE_URL": url,
        "WALLET_PORT": str(port),
        "WALLET_REUSE_PORT": "true",
        "WALLET_BUS_URL": "memory://",
        "WALLET_LOG_LEVEL": "WARNING",
    }
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "platform_runner.cli", "serve", "wallet"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(instances)
    ]
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits)
    # A process listens once its app has started (and is then ready): every one of them listening on the port.
    for _ in range(600):
        if any(process.poll() is not None for process in processes):
            break
        if all(port in listening_ports(process.pid) for process in processes):
            return processes, http
        await asyncio.sleep(0.1)
    stop(processes)
    raise RuntimeError("the wallet processes did not start")


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        process.wait(timeout=30)


# -- the run ----------------------------------------------------------------------------------------------------
async def prepare(wallet: Services) -> None:
    """200 players, each of its own concessionaire, funded for every buy-in the run can make."""
    for n in range(PAIRS):
        async with wallet.runtime.db.transaction() as session:
            await wallet.money.open_player_account(session, f"p{n}", f"c{n}", "EUR")
            deposit = CashRequest(OperationKind.DEPOSIT, f"c{n}", f"p{n}", "EUR", 10**12, None)
            await wallet.money.cash(session, deposit)


async def postgres_ceiling(url: str, concurrency: int, seconds: float, hot: bool) -> Result:
    """The database alone: one-row UPDATE transactions from `concurrency` asyncpg connections (no SQLAlchemy,
    no wallet), all on one row (`hot`: the single-pair case's cashier account) or on rows picked at random."""
    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    pool = await asyncpg.create_pool(dsn, min_size=concurrency, max_size=concurrency)
    try:
        await pool.execute("CREATE TABLE IF NOT EXISTS ceiling (id int PRIMARY KEY, v bigint NOT NULL)")
        await pool.execute(
            "INSERT INTO ceiling SELECT g, 0 FROM generate_series(0, $1) g ON CONFLICT DO NOTHING", PAIRS
        )

        async def update(rng: random.Random) -> None:
            row = 0 if hot else rng.randrange(PAIRS)
            async with pool.acquire() as connection, connection.transaction():
                await connection.execute("UPDATE ceiling SET v = v + 1 WHERE id = $1", row)

        cpu = time.process_time()
        elapsed, latencies = await drive(update, seconds, concurrency)
        cpu = time.process_time() - cpu
    finally:
        await pool.close()
    name = "one row" if hot else f"{PAIRS} rows at random"
    return Result.measured("peer: PostgreSQL alone", name, 0, elapsed, latencies, cpu, 3 * len(latencies))


async def measure(
    url: str,
    seconds: float,
    concurrency: int,
    layers: list[str],
    http_connections: list[int],
    load: str,
    instances: list[int],
) -> list[Result]:
    results: list[Result] = []
    settings = Settings(database_url=url, reconciliation_interval_seconds=3600.0)
    app = create_app(settings, bus=InMemoryBus())
    async with app.router.lifespan_context(app):
        wallet: Services = app.state.services
        await prepare(wallet)
        if "ledger" in layers:
            wallet_db = str(wallet.runtime.db.engine.url.database)
            for grouped in (False, True):
                layer = "ledger, group commit" if grouped else "ledger, alone"
                for scenario, call, legs in (
                    ("single pair", ledger_deposit(wallet, 1, grouped), 1),
                    ("many accounts", ledger_deposit(wallet, PAIRS, grouped), 1),
                    ("buy-ins, one tournament", ledger_buy_in(wallet, grouped), 2),
                ):
                    cpu = time.process_time()
                    with DatabaseTraffic() as traffic:
                        elapsed, latencies = await drive(call, seconds, concurrency)
                    cpu = time.process_time() - cpu
                    trips = traffic.round_trips(wallet_db)
                    results.append(Result.measured(layer, scenario, legs, elapsed, latencies, cpu, trips))
        if "app" in layers:
            for scenario, call, legs in (
                ("single pair", over_app(app, deposit_request(1)), 1),
                ("many accounts", over_app(app, deposit_request(PAIRS)), 1),
                ("buy-ins, one tournament", over_app(app, buy_in_request), 2),
            ):
                cpu = time.process_time()
                elapsed, latencies = await drive(call, seconds, concurrency)
                cpu = time.process_time() - cpu
                results.append(Result.measured("app, in process", scenario, legs, elapsed, latencies, cpu, None))
        report = await wallet.reconciler.check()
        assert report.ok, report
    for count in instances if "http" in layers else []:
        processes, http = await serve(url, count)
        try:
            for connections in http_connections:
                results += await measure_http(processes, http, seconds, connections, load)
            reconciliation = (await http.get("/internal/v1/reconciliation", headers={"X-Internal-Token": TOKEN})).json()
            assert reconciliation["ok"], reconciliation
        finally:
            await http.aclose()
            stop(processes)
    return results


async def measure_http(
    processes: list[subprocess.Popen[bytes]], http: httpx.AsyncClient, seconds: float, connections: int, load: str
) -> list[Result]:
    results = []
    for scenario, pairs, buy_in, legs in (
        ("single pair", 1, False, 1),
        ("many accounts", PAIRS, False, 1),
        ("buy-ins, one tournament", PAIRS, True, 2),
    ):
        servers = f", {len(processes)} processes" if len(processes) > 1 else ""
        layer = f"http ({load}, {connections} connections{servers})"
        cpu = CpuSince(processes)
        if load == "wrk":
            env = {"BENCH_RUN": uuid.uuid4().hex, "BENCH_PAIRS": str(pairs), "BENCH_BUY_IN": "1" if buy_in else ""}
            figures = await asyncio.to_thread(
                run_wrk,
                WRK_SCRIPT,
                str(http.base_url),
                connections=connections,
                seconds=seconds,
                env=env,
                measuring=cpu.mark,  # after the warm-up: the measured run's CPU alone
            )
            operations = round(figures.throughput * seconds)
            results.append(
                Result(
                    layer,
                    scenario,
                    operations,
                    legs,
                    seconds,
                    figures.p50_ms,
                    figures.p99_ms,
                    cpu.seconds(),
                    None,
                    figures.failed,
                )
            )
        else:
            call = over_http(http, buy_in_request if buy_in else deposit_request(pairs))
            elapsed, latencies = await drive(call, seconds, connections)
            results.append(Result.measured(layer, scenario, legs, elapsed, latencies, cpu.seconds(), None))
    return results


async def main(
    seconds: float,
    concurrency: int,
    layers: list[str],
    database: str,
    http_connections: list[int],
    load: str,
    instances: list[int],
) -> None:
    if database == "sqlite":
        with tempfile.TemporaryDirectory() as directory:
            results = await measure(
                f"sqlite+aiosqlite:///{directory}/wallet.db", seconds, concurrency, layers, http_connections, load, [1]
            )
        peers = "none (SQLite standalone: one process, one writer at a time)"
    else:
        url = await create_database()
        try:
            results = await measure(url, seconds, concurrency, layers, http_connections, load, instances)
        finally:
            await drop_database(url)
        url = await create_database()
        try:
            for hot in (True, False):
                results.append(await postgres_ceiling(url, concurrency, seconds, hot))
        finally:
            await drop_database(url)
        peers = "PostgreSQL alone, the same load of one-row transactions through asyncpg"

    name = "SQLite (standalone)" if database == "sqlite" else "PostgreSQL"
    print(
        f"\nWallet on {name}, {concurrency} concurrent callers in process, {seconds:g} s per scenario (reconciled after);"
        f" the peers: {peers}"
    )
    print(
        "| layer | scenario | operations | operations/s | transfers/s | p50 ms | p99 ms | CPU ms/op | round trips/op"
        " | failed |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for result in results:
        print(result.row())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--layers", default="ledger,app,http")
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--http-connections", default="16,50", help="the http layer's callers, one run per number")
    parser.add_argument("--load", choices=("wrk", "httpx"), default="wrk" if installed() else "httpx")
    parser.add_argument(
        "--instances",
        default="1,2",
        help="PostgreSQL: wallet processes sharing the port, one http run per number (deployed: 2 replicas at least)",
    )
    args = parser.parse_args()
    connections = [int(n) for n in args.http_connections.split(",")]
    instances = [int(n) for n in args.instances.split(",")]
    serving.run(  # the services' own loop (uvloop)
        main(args.seconds, args.concurrency, args.layers.split(","), args.database, connections, args.load, instances)
    )
