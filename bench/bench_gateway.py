"""The gateway under load, served by uvicorn in processes of its own (the load comes from this one):

1. REST latency p50/p99 with many concurrent clients, each a player of its own, for a route served by the gateway alone
   (`GET /players/me`: token, rate limit, database read), a proxied read (`GET /tournaments`, to a director
   faked in the gateway's process so only the gateway's own work is timed) and a player's action
   (`POST /tables/{id}/actions`: standing check and an outbox write in one transaction) — on each database asked
   for (SQLite standalone, PostgreSQL deployed), with one or more gateway instances sharing the port
   (SO_REUSEPORT: the kernel spreads the connections, as a load balancer would).
2. The peers, in the same run and on the same cores, each a ceiling the gateway's figure cannot pass:
   a bare FastAPI app answering one JSON route under the same uvicorn (the framework and server), the
   gateway's own `/healthz` (its middleware stack, no token, no database), and the route's database read alone
   through the kit's read sessions, in this process at the same concurrency (the storage layer).
3. WebSocket fan-out: N clients (1,000 by default) subscribed to one table on one gateway process; table events
   (chat lines carrying their publication time) are put on the gateway's bus, and each client measures the
   delay to its copy: p50/p99 delivery latency and messages delivered. The clients are bare asyncio protocols
   (`ws_load.py`): a WebSocket library's client cost this process a full core at 3,000 sockets, and the figure
   then measured the load generator. The gateway's WebSockets are as `platform serve` has them (no
   compression, no protocol pings).

    uv run python bench/bench_gateway.py [--database sqlite,postgresql] [--instances 1] [--load wrk|httpx]
        [--seconds 8] [--requests 2000] [--concurrency 50] [--clients 1000] [--events 100]

The REST load comes from wrk (Debian's package) when it is installed — a C load generator that leaves the
cores to the servers — or else from httpx in this process (`--load httpx`; it costs more CPU than the gateway
does, so its figures are lower bounds). Everything shares the machine's two cores: the numbers include the
load generator's own time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests-e2e"))
import ws_load
from harness.processes import free_port, listening_ports
from wrk_load import Figures, installed, run_wrk

TABLE = "bench"
PASSWORD = "bench password 123"
SIGNUP = {
    "concessionaire": "demo",
    "nickname": "BenchPlayer",
    "email": "bench@example.com",
    "date_of_birth": "1990-01-01",
    "password": PASSWORD,
}


# -- the served processes (children) ------------------------------------------------------------------------------
def run_server(app: Any, port: int) -> None:
    """Served on the event loop the platform's own runner uses (`platform serve`: uvloop)."""
    import uvicorn
    from platform_runner import serving
    from platform_runner.serving import run, shared_port_socket

    # The port shared by every instance (as `<SERVICE>_REUSE_PORT` does): the kernel spreads the connections.
    # The WebSockets as `platform serve` has them (`serving.server_config`): uvicorn's defaults compress every
    # message for every socket (permessage-deflate, a tenth of the gateway's time in a fan-out) and ping each
    # socket besides the gateway's own heartbeat.
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_queue=10_000,
        timeout_keep_alive=60,
        backlog=2048,
        ws_per_message_deflate=serving.WEBSOCKET_COMPRESSION,
        ws_ping_interval=serving.WEBSOCKET_PROTOCOL_PING_SECONDS,
    )
    run(uvicorn.Server(config).serve(sockets=[shared_port_socket("127.0.0.1", port)]))


def serve_gateway(port: int, database_url: str) -> None:
    from gateway.app import create_app
    from gateway.settings import Settings
    from platform_kit.bus import Envelope, InMemoryBus
    from platform_kit.events.table import ChatPosted

    lobby = json.dumps(
        [{"tournament_id": f"t-{n}", "name": f"Tournament {n}", "status": "registering"} for n in range(20)]
    )

    def director(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=lobby, headers={"content-type": "application/json"})

    bus = InMemoryBus()
    settings = Settings.model_validate(
        {
            "database_url": database_url,
            "demo_bots": False,
            "demo_welcome_credit_cents": 0,
            "password_hash_time_cost": 1,
            "password_hash_memory_kib": 64,
            "rate_limit_per_second": 1e9,
            "rate_limit_burst": 10**9,
            "anonymous_rate_limit_per_second": 1e9,
            "anonymous_rate_limit_burst": 10**9,
            "ws_send_queue": 10_000,
            "log_level": "WARNING",
        }
    )
    app = create_app(settings, bus=bus, services_transport=httpx.MockTransport(director))

    async def publish(count: int, interval_ms: float) -> None:
        for n in range(count):
            event = ChatPosted(table_id=TABLE, player_id="bench", text=f"{n}:{time.time_ns()}")
            await bus.publish(Envelope.wrap(event, producer="bench").outgoing(event.TYPE))
            await asyncio.sleep(interval_ms / 1000)

    publishing: set[asyncio.Task[None]] = set()

    async def trigger(count: int, interval_ms: float) -> dict[str, int]:
        task = asyncio.create_task(publish(count, interval_ms))
        publishing.add(task)
        task.add_done_callback(publishing.discard)
        return {"publishing": count}

    # The benchmark's own trigger, on this process's app only; before the web client's catch-all mount.
    app.add_api_route("/bench/publish", trigger, methods=["POST"])
    app.router.routes.insert(0, app.router.routes.pop())
    run_server(app, port)


def serve_bare(port: int) -> None:
    """The framework's ceiling: FastAPI and uvicorn answering a small JSON body, nothing else."""
    from fastapi import FastAPI

    app = FastAPI()

    @app.get("/me")
    async def me() -> dict[str, str]:
        return {"player_id": "p-1", "nickname": "BenchPlayer", "concessionaire_id": "demo"}

    run_server(app, port)


# -- the load (this process) ---------------------------------------------------------------------------------------
def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99, ordered[-1]


async def httpx_load(
    base: str, headers: list[dict[str, str]], method: str, path: str, body: Any, args: argparse.Namespace
) -> Figures:
    """Each worker sends its requests with the next of `headers` (one player's credentials each)."""
    latencies: list[float] = []
    failures = 0
    limits = httpx.Limits(max_connections=args.concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def worker(remaining: Iterator[int], own: dict[str, str]) -> None:
            nonlocal failures
            for _ in remaining:
                started = time.perf_counter()
                try:
                    answer = await http.request(method, path, json=body, headers=own)
                except httpx.TransportError:
                    failures += 1
                    continue
                latencies.append((time.perf_counter() - started) * 1000)
                failures += answer.status_code >= 400

        warm = iter(range(min(200, args.requests)))
        await asyncio.gather(*(worker(warm, headers[n % len(headers)]) for n in range(args.concurrency)))
        latencies.clear()
        remaining = iter(range(args.requests))
        started = time.perf_counter()
        await asyncio.gather(*(worker(remaining, headers[n % len(headers)]) for n in range(args.concurrency)))
        elapsed = time.perf_counter() - started
    p50, p99, worst = percentiles(latencies)
    return Figures(len(latencies) / elapsed, p50, p99, worst, failures)


# Each request as the next player's (BENCH_TOKENS, comma-separated; none: no credentials).
WRK_SCRIPT = """
wrk.method = os.getenv("BENCH_METHOD")
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
local tokens = {}
for token in string.gmatch(os.getenv("BENCH_TOKENS"), "[^,]+") do tokens[#tokens + 1] = token end
local sent = 0
request = function()
  sent = sent + 1
  if #tokens > 0 then wrk.headers["Authorization"] = "Bearer " .. tokens[sent % #tokens + 1] end
  return wrk.format()
end
"""


def wrk_load(base: str, tokens: list[str], method: str, path: str, body: Any, args: argparse.Namespace) -> Figures:
    env = {"BENCH_METHOD": method, "BENCH_BODY": json.dumps(body) if body else "", "BENCH_TOKENS": ",".join(tokens)}
    return run_wrk(WRK_SCRIPT, f"{base}{path}", connections=args.concurrency, seconds=args.seconds, env=env)


async def rest_figures(
    base: str, tokens: list[str], method: str, path: str, body: Any, args: argparse.Namespace
) -> Figures:
    """The route under load, each request as the next of `tokens`' players (none: without credentials)."""
    if args.load == "wrk":
        return await asyncio.to_thread(wrk_load, base, tokens, method, path, body, args)
    headers = [{"Authorization": f"Bearer {token}"} for token in tokens] or [{}]
    return await httpx_load(base, headers, method, path, body, args)


async def database_read_alone(database_url: str, player_id: str, args: argparse.Namespace) -> Figures:
    """The route's read (`identity_store.get_player` on a read connection), nothing around it, at the same
    concurrency: the storage layer's ceiling for `GET /players/me`."""
    from gateway.adapters import identity_store
    from platform_kit.db import Database

    db = Database(database_url)
    latencies: list[float] = []
    deadline = 0.0

    async def worker() -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            async with db.read_connection() as connection:
                await identity_store.get_player(connection, player_id)
            latencies.append((time.perf_counter() - started) * 1000)

    try:
        for seconds in (1.0, float(args.seconds)):  # warm-up, then the measure
            latencies.clear()
            deadline = time.perf_counter() + seconds
            started = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(args.concurrency)))
            elapsed = time.perf_counter() - started
    finally:
        await db.dispose()
    p50, p99, worst = percentiles(latencies)
    return Figures(len(latencies) / elapsed, p50, p99, worst, 0)


async def fan_out(
    base: str, token: str, clients: int, events: int, interval_ms: float
) -> tuple[list[float], int, float]:
    """`clients` sockets subscribed to one table, then `events` table events published by the gateway's process
    itself; each message's latency from its publication to its arrival here. The clients are `ws_load`'s (see
    there why not a WebSocket library's)."""
    url = base.replace("http", "ws", 1) + "/api/v1/ws?socket=table"
    latencies: list[float] = []
    done = asyncio.Event()
    expected = clients * events

    def on_text(client: ws_load.WebSocketClient, payload: bytes) -> None:
        at = payload.find(b'"text":"')  # a table event's chat text: "<n>:<published at, ns>"
        if at < 0:
            if payload.startswith(b'{"type":"ping"'):
                client.send_text('{"type":"pong"}')
            return
        sent_ns = int(payload[at + 8 : payload.index(b'"', at + 8)].split(b":")[1])
        latencies.append((time.time_ns() - sent_ns) / 1e6)
        if len(latencies) >= expected:
            done.set()

    async def client() -> ws_load.WebSocketClient:
        ws = await ws_load.connect(url, on_text)
        ws.send_text(json.dumps({"type": "auth", "token": token}))
        await ws.texts.get()  # welcome
        ws.send_text(json.dumps({"type": "subscribe", "channel": f"table:{TABLE}"}))
        await ws.texts.get()  # subscribed
        ws.queued = False
        return ws

    started = time.perf_counter()
    sockets: list[ws_load.WebSocketClient] = []
    while len(sockets) < clients:  # connect in waves: a thousand handshakes at once would only time out
        sockets += await asyncio.gather(*(client() for _ in range(min(50, clients - len(sockets)))))
    connect_seconds = time.perf_counter() - started
    async with httpx.AsyncClient(base_url=base) as http:
        await http.post("/bench/publish", params={"count": events, "interval_ms": interval_ms})
    with contextlib.suppress(TimeoutError):  # what arrived in time is what is reported
        await asyncio.wait_for(done.wait(), timeout=60 + events * interval_ms / 1000)
    for ws in sockets:
        ws.close()
    return latencies, len(latencies), connect_seconds


def row(label: str, load: str, figures: Figures) -> tuple[str, ...]:
    return (
        label,
        load,
        f"{figures.throughput:,.0f}/s",
        f"{figures.p50_ms:.1f}",
        f"{figures.p99_ms:.1f}",
        f"{figures.max_ms:.1f}",
        str(figures.failed),
    )


async def measure_rest(
    base: str, bare: str, database: str, database_url: str, args: argparse.Namespace
) -> list[tuple[str, ...]]:
    # One player per client, as in play: with one player behind every client, the gateway's batched reads
    # (service/standing_reads.py) read that one player for the whole batch.
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        signed = await asyncio.gather(
            *(
                http.post("/api/v1/auth/signup", json={**SIGNUP, "nickname": f"Bench{n}", "email": f"b{n}@example.com"})
                for n in range(args.concurrency)
            )
        )
        tokens = [answer.json()["access_token"] for answer in signed]
        me = await http.get("/api/v1/players/me", headers={"Authorization": f"Bearer {tokens[0]}"})
        player_id = me.json()["id"]
    where = f"{database}, {args.instances} instance{'s' if args.instances > 1 else ''}"
    load = f"{args.concurrency} clients"
    action = {"hand_id": "h-1", "action": "check"}
    rows = []
    for label, method, path, body in (
        ("GET /players/me", "GET", "/api/v1/players/me", None),
        ("GET /tournaments (proxied)", "GET", "/api/v1/tournaments", None),
        ("POST /tables/{id}/actions", "POST", f"/api/v1/tables/{TABLE}/actions", action),
    ):
        rows.append(row(f"{label} [{where}]", load, await rest_figures(base, tokens, method, path, body, args)))
    rows.append(
        row(f"peer: gateway /healthz [{where}]", load, await rest_figures(base, [], "GET", "/healthz", None, args))
    )
    rows.append(row(f"peer: the read alone [{database}, 1 process]", f"{args.concurrency} tasks",
                    await database_read_alone(database_url, player_id, args)))  # fmt: skip
    rows.append(row(f"peer: bare FastAPI route [{args.instances} instance(s)]", load,
                    await rest_figures(bare, [], "GET", "/me", None, args)))  # fmt: skip
    return rows


async def measure_fan_out(base: str, args: argparse.Namespace) -> tuple[str, ...]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        token = (
            await http.post(
                "/api/v1/auth/signup", json={**SIGNUP, "nickname": "FanOutBench", "email": "fanout@example.com"}
            )
        ).json()["access_token"]
    latencies, received, connect_seconds = await fan_out(base, token, args.clients, args.events, args.interval_ms)
    p50, p99, worst = percentiles(latencies) if latencies else (0.0, 0.0, 0.0)
    print(f"({args.clients} sockets connected and subscribed in {connect_seconds:.1f} s)")
    return (
        "WS table events [1 instance]",
        f"{args.clients} sockets",
        f"{received:,}/{args.clients * args.events:,} msgs",
        f"{p50:.1f}",
        f"{p99:.1f}",
        f"{worst:.1f}",
        str(args.clients * args.events - received),
    )


def wait_until_up(url: str, port: int, processes: list[subprocess.Popen[bytes]]) -> None:
    """Until `url` answers 200 and the last process started listens: on the shared port any instance may answer,
    and one joins (listens) only once it has started."""
    deadline = time.monotonic() + 180  # a gateway starting on a busy shared machine (imports, migrations)
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            raise SystemExit("a served process stopped")
        try:
            if httpx.get(url, timeout=2).status_code == 200 and port in listening_ports(processes[-1].pid):
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


@contextlib.contextmanager
def served(role: str, port: int, database_url: str, instances: int, folder: Path) -> Iterator[None]:
    """`instances` processes on one port; the first is up (and has migrated the database) before the next
    starts, so they never migrate at once."""
    processes: list[subprocess.Popen[bytes]] = []
    ready = f"http://127.0.0.1:{port}/readyz" if role == "gateway" else f"http://127.0.0.1:{port}/me"
    try:
        for n in range(instances):
            log = (folder / f"{role}-{n}.log").open("w")
            command = [sys.executable, __file__, "--serve", role, str(port), database_url]
            env = {**os.environ, "GATEWAY_LOG_LEVEL": "WARNING"}
            processes.append(subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT))
            wait_until_up(ready, port, processes)
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=20)


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'gateway.db'}"
        return
    from platform_kit.testing import create_database, drop_database

    url = asyncio.run(create_database())
    try:
        yield url
    finally:
        asyncio.run(drop_database(url))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite,postgresql", help="sqlite, postgresql or both (comma)")
    parser.add_argument("--instances", type=int, default=1, help="gateway processes sharing the port")
    parser.add_argument("--load", choices=("wrk", "httpx"), default="wrk" if installed() else "httpx")
    parser.add_argument("--seconds", type=int, default=8, help="per REST route (wrk and the read alone)")
    parser.add_argument("--requests", type=int, default=2000, help="per REST route (httpx)")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--clients", type=int, default=1000, help="WebSocket clients (0: no fan-out)")
    parser.add_argument("--events", type=int, default=100, help="table events published")
    parser.add_argument("--interval-ms", type=float, default=20.0, help="between two table events")
    parser.add_argument("--serve", nargs=3, metavar=("ROLE", "PORT", "DATABASE_URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per client on each side
    if args.serve:
        role, port, url = args.serve
        serve_gateway(int(port), url) if role == "gateway" else serve_bare(int(port))
        return
    rows: list[tuple[str, ...]] = []
    for kind in args.database.split(","):
        with tempfile.TemporaryDirectory() as name, database(kind, Path(name)) as url:
            folder = Path(name)
            port, bare_port = free_port(), free_port()
            with (
                served("gateway", port, url, args.instances, folder),
                served("bare", bare_port, "", args.instances, folder),
            ):
                rows += asyncio.run(
                    measure_rest(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}", kind, url, args)
                )
            if args.clients:
                # One gateway process, whatever --instances says: the table events are put on that process's
                # bus, so sockets that the kernel handed to another instance would wait for nothing.
                fan_out_port = free_port()
                with served("gateway", fan_out_port, url, 1, folder):
                    rows.append(asyncio.run(measure_fan_out(f"http://127.0.0.1:{fan_out_port}", args)))
            args.clients = 0  # the fan-out does not touch the database: measured once
    print(f"load: {args.load}, {args.concurrency} concurrent clients; load generator, servers and databases share the "
          f"machine's {os.cpu_count()} cores")  # fmt: skip
    header = ("what", "load", "throughput", "p50 ms", "p99 ms", "max ms", "failed")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for line in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)))


if __name__ == "__main__":
    main()
