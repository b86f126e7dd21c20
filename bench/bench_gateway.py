"""The gateway under load, served by uvicorn in its own process (the load comes from this one):

1. REST latency p50/p99 with many concurrent clients, for a route served by the gateway alone
   (`GET /players/me`: token, rate limit, database read), a proxied read (`GET /tournaments`, to a director
   faked in the gateway's process so only the gateway's own work is timed) and a player's action
   (`POST /tables/{id}/actions`: standing check and an outbox write in one SQLite transaction).
2. WebSocket fan-out: N clients (1,000 by default) subscribed to one table on one gateway process; table events
   (chat lines carrying their publication time) are put on the gateway's bus, and each client measures the
   delay to its copy: p50/p99 delivery latency and messages delivered.

    uv run python bench/bench_gateway.py [--requests 2000] [--concurrency 50] [--clients 1000] [--events 100]

Both processes share the machine's two cores: the numbers include the load generator's own time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

TABLE = "bench"
PASSWORD = "bench password 123"


# -- the served gateway (child process) ---------------------------------------------------------------------------
def serve(port: int, database: Path) -> None:
    import uvicorn
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
            "database_url": f"sqlite+aiosqlite:///{database}",
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
            await bus.publish(Envelope.wrap(event, producer="bench"), event.TYPE)
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
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_queue=10_000, timeout_keep_alive=60)


# -- the load (this process) ---------------------------------------------------------------------------------------
def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99, ordered[-1]


async def rest_load(
    http: httpx.AsyncClient, method: str, path: str, body: Any, requests: int, concurrency: int
) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    failures = 0
    remaining = iter(range(requests))

    async def worker() -> None:
        nonlocal failures
        for _ in remaining:
            started = time.perf_counter()
            try:
                answer = await http.request(method, path, json=body)
            except httpx.TransportError:
                failures += 1
                continue
            latencies.append((time.perf_counter() - started) * 1000)
            failures += answer.status_code >= 400

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, failures, time.perf_counter() - started


async def fan_out(
    base: str, token: str, clients: int, events: int, interval_ms: float
) -> tuple[list[float], int, float]:
    from websockets.asyncio.client import connect

    url = base.replace("http", "ws", 1) + "/api/v1/ws?socket=table"
    latencies: list[float] = []
    received = 0
    done = asyncio.Event()
    expected = clients * events

    async def client(ready: asyncio.Event) -> None:
        nonlocal received
        async with connect(url, max_queue=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            await ws.recv()  # welcome
            await ws.send(json.dumps({"type": "subscribe", "channel": f"table:{TABLE}"}))
            await ws.recv()  # subscribed
            ready.set()
            async for text in ws:
                frame = json.loads(text)
                if frame.get("type") == "ping":
                    await ws.send('{"type": "pong"}')
                    continue
                if frame.get("type") == "message":
                    sent_ns = int(frame["data"]["payload"]["text"].split(":")[1])
                    latencies.append((time.time_ns() - sent_ns) / 1e6)
                    received += 1
                    if received >= expected:
                        done.set()
                if done.is_set():
                    return

    started = time.perf_counter()
    readies = [asyncio.Event() for _ in range(clients)]
    tasks = []
    for ready in readies:  # connect in waves: a thousand handshakes at once would only time out
        tasks.append(asyncio.create_task(client(ready)))
        if len(tasks) % 50 == 0:
            await asyncio.gather(*(r.wait() for r in readies[: len(tasks)]))
    await asyncio.gather(*(r.wait() for r in readies))
    connect_seconds = time.perf_counter() - started
    async with httpx.AsyncClient(base_url=base) as http:
        await http.post("/bench/publish", params={"count": events, "interval_ms": interval_ms})
    with contextlib.suppress(TimeoutError):  # what arrived in time is what is reported
        await asyncio.wait_for(done.wait(), timeout=60 + events * interval_ms / 1000)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, received, connect_seconds


async def measure(base: str, args: argparse.Namespace) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    async with httpx.AsyncClient(
        base_url=base, timeout=60, limits=httpx.Limits(max_connections=args.concurrency)
    ) as http:
        signup = {
            "concessionaire": "demo",
            "nickname": "BenchPlayer",
            "email": "bench@example.com",
            "date_of_birth": "1990-01-01",
            "password": PASSWORD,
        }
        token = (await http.post("/api/v1/auth/signup", json=signup)).json()["access_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        action = {"hand_id": "h-1", "action": "check"}
        for label, method, path, body in (
            ("GET /players/me", "GET", "/api/v1/players/me", None),
            ("GET /tournaments (proxied)", "GET", "/api/v1/tournaments", None),
            ("POST /tables/{id}/actions", "POST", f"/api/v1/tables/{TABLE}/actions", action),
        ):
            await rest_load(http, method, path, body, min(200, args.requests), args.concurrency)  # warm-up
            latencies, failures, elapsed = await rest_load(http, method, path, body, args.requests, args.concurrency)
            p50, p99, worst = percentiles(latencies)
            rows.append(
                (
                    label,
                    f"{args.concurrency} clients",
                    f"{len(latencies) / elapsed:,.0f}/s",
                    f"{p50:.1f}",
                    f"{p99:.1f}",
                    f"{worst:.1f}",
                    str(failures),
                )
            )
    latencies, received, connect_seconds = await fan_out(base, token, args.clients, args.events, args.interval_ms)
    if latencies:
        p50, p99, worst = percentiles(latencies)
        rows.append(
            (
                "WS table events",
                f"{args.clients} sockets",
                f"{received:,}/{args.clients * args.events:,} msgs",
                f"{p50:.1f}",
                f"{p99:.1f}",
                f"{worst:.1f}",
                str(args.clients * args.events - received),
            )
        )
    print(f"({args.clients} sockets connected and subscribed in {connect_seconds:.1f} s)")
    return rows


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the gateway process stopped")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the gateway did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="per REST route")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--clients", type=int, default=1000, help="WebSocket clients")
    parser.add_argument("--events", type=int, default=100, help="table events published")
    parser.add_argument("--interval-ms", type=float, default=20.0, help="between two table events")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per client on each side
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "GATEWAY_LOG_LEVEL": "WARNING"}
        command = [sys.executable, __file__, "--serve", str(port), str(Path(folder) / "gateway.db")]
        log = (Path(folder) / "gateway.log").open("w")
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_until_up(base, process)
            rows = asyncio.run(measure(base, args))
        finally:
            process.terminate()
            process.wait(timeout=20)
            log.close()
    header = ("what", "load", "throughput", "p50 ms", "p99 ms", "max ms", "failed")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
