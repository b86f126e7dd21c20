"""Service-to-service calls (platform_kit.internal_client) in a rush: what one call costs the caller's CPU, by the
size of the connection pool.

A service answering after `--delay-ms` (a director busy with a registration) runs in a process of its own; this
process sends `--callers` calls at a time through the kit's internal client for `--seconds`, as a gateway relays
a registration rush. Each row: calls answered per second, the caller's CPU per call (this process's own time, which
is what the gateway pays on its one core), and the latency the callers saw (queueing for a connection included).

Peers in the same run: httpx alone with the same pool (the client the internal client was built on until issue 14
measured it), httpx over the kit's aiohttp transport (platform_kit.aiohttp_sender: what the capacity benchmark's
bots send through), aiohttp alone (what the internal client is built on now, without the kit's headers, queue and
answer), and the service alone under wrk when it is installed (the ceiling of calls per second the server gives on
this machine).

    uv run python bench/bench_internal_client.py [--callers 200] [--delay-ms 20] [--seconds 6] [--pools 100,32]

Everything shares the machine's cores: the service, the caller and wrk.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import aiohttp
import httpx
from platform_kit.aiohttp_sender import AiohttpTransport
from platform_kit.internal_client import InternalClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests-e2e"))

from harness.processes import free_port

Call = Callable[[], Awaitable[httpx.Response]]
HERE = Path(__file__).resolve().parent


def serve(port: int, delay: float) -> None:
    """The service: one route answering a small JSON body after `delay` seconds."""
    import uvicorn

    body = b'{"registered":1}'

    async def app(scope: dict, receive: Callable, send: Callable) -> None:  # type: ignore[type-arg]
        if scope["type"] != "http":
            return
        await asyncio.sleep(delay)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, backlog=4096)


async def wait_ready(url: str) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(200):
            try:
                await http.get(url)
                return
            except httpx.TransportError:
                await asyncio.sleep(0.05)
    raise SystemExit(f"the service at {url} did not start")


async def rush(call: Call, callers: int, seconds: float) -> tuple[float, float, float, float]:
    """Calls/s, CPU ms per call, p50 and p99 latency in ms."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def caller() -> None:
        while time.monotonic() < stop:
            started = time.monotonic()
            answer = await call()
            answer.raise_for_status()
            latencies.append(time.monotonic() - started)

    cpu, wall = time.process_time(), time.monotonic()
    await asyncio.gather(*(caller() for _ in range(callers)))
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    return len(latencies) / wall, cpu * 1000 / len(latencies), statistics.median(latencies) * 1000, p99 * 1000


async def aiohttp_post(session: aiohttp.ClientSession) -> httpx.Response:
    async with session.post("/r", json={"entry": "buy_in"}) as answer:
        return httpx.Response(answer.status, content=await answer.read(), request=httpx.Request("POST", "/r"))


def wrk(url: str, connections: int, seconds: float) -> float | None:
    if shutil.which("wrk") is None:
        return None
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", url], capture_output=True, text=True, check=True
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("Requests/sec"))
    return float(line.split()[1])


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    code = f"import bench_internal_client as b; b.serve({port}, {args.delay_ms / 1000})"
    service = subprocess.Popen([sys.executable, "-c", code], cwd=HERE)
    rows: list[tuple[str, float, float, float, float]] = []
    try:
        await wait_ready(base)
        for pool in args.pools:
            client = InternalClient(base, "token", max_connections=pool)
            await rush(lambda c=client: c.request("POST", "/warm", json={}), args.callers, 1.0)
            figures = await rush(
                lambda c=client: c.request("POST", "/r", json={"entry": "buy_in"}, idempotency_key="k"),
                args.callers,
                args.seconds,
            )
            rows.append((f"internal client, pool {pool}", *figures))
            await client.aclose()
        for pool in args.pools:
            limits = httpx.Limits(max_connections=pool, max_keepalive_connections=pool)
            async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
                await rush(lambda h=http: h.post("/warm", json={}), args.callers, 1.0)
                figures = await rush(lambda h=http: h.post("/r", json={"entry": "buy_in"}), args.callers, args.seconds)
            rows.append((f"peer: httpx alone, pool {pool}", *figures))
        for pool in args.pools:
            transport = AiohttpTransport(max_connections=pool)
            async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
                await rush(lambda h=http: h.post("/warm", json={}), args.callers, 1.0)
                figures = await rush(lambda h=http: h.post("/r", json={"entry": "buy_in"}), args.callers, args.seconds)
            rows.append((f"peer: httpx over aiohttp, pool {pool}", *figures))
        for pool in args.pools:
            async with aiohttp.ClientSession(base, connector=aiohttp.TCPConnector(limit=pool)) as session:
                call = partial(aiohttp_post, session)
                await rush(call, args.callers, 1.0)
                rows.append((f"peer: aiohttp alone, pool {pool}", *await rush(call, args.callers, args.seconds)))
        ceiling = wrk(f"{base}/r", max(args.pools), args.seconds)
    finally:
        service.terminate()
        service.wait()
    print(f"\n{args.callers} callers at once, service answering after {args.delay_ms:g} ms, {args.seconds:g} s per row")
    print(f"{'caller':34} {'calls/s':>9} {'CPU ms/call':>12} {'p50 ms':>8} {'p99 ms':>8}")
    for name, rate, cpu, p50, p99 in rows:
        print(f"{name:34} {rate:9,.0f} {cpu:12.3f} {p50:8.1f} {p99:8.1f}")
    if ceiling is not None:
        print(f"{'peer: the service alone (wrk)':34} {ceiling:9,.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--pools", type=lambda text: [int(p) for p in text.split(",")], default=[100, 32])
    asyncio.run(main(parser.parse_args()))
