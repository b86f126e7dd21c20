"""What a request costs a service before its own work: the kit's middleware, FastAPI's routing and the first
dependency, in process, by route.

Each service's real app (`create_app`, started with its lifespan on a SQLite file and the in-memory bus) is called
as uvicorn calls it (a raw ASGI request, no HTTP, no client) on its busiest routes, without credentials: every one
of them is refused 401 by its first dependency, so the figure is the path every request pays — middleware,
finding the route among the app's routes, reading the body, solving that dependency — and a refusal's answer,
nothing of the route's own work. A route found later in the app's list pays more (FastAPI tries the routes in
order): the rows show it by where each route sits.

Peers in the same run: each app's `/healthz` (the middleware and a route with no dependency), and a bare FastAPI
app with one route whose one async dependency refuses (the framework's floor for such a request, with no
middleware and one route). Two more routes of that app price a dependency node: the same two headers read by
one dependency, or by two sub-dependencies of it (FastAPI solves each node anew on every request).

    uv run python bench/bench_request_overhead.py [--requests 1000] [--rounds 7]

Each figure is the best of `--rounds` rounds of `--requests` requests (µs of wall time a request, this process
alone on one core; the other core is left to the machine). Issue 14: flattening the routers (platform_kit.flat_routes)
was measured with it.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException
from platform_kit.bus import InMemoryBus
from starlette.routing import Match

Endpoint = tuple[str, str]  # method, path


async def call(
    app: Any, method: str, path: str, *, body: bytes = b"{}", headers: Sequence[tuple[bytes, bytes]] = ()
) -> int:
    """One request as an ASGI server sends it (a JSON body, `{}` unless given, with `headers` besides the host
    and the body's); the answer's status."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
        "server": ("bench", 80),
        "client": ("10.0.0.1", 40000),
        "state": {},
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    statuses: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await app(scope, receive, send)
    return statuses[0]


async def microseconds(app: Any, endpoint: Endpoint, requests: int, rounds: int) -> tuple[float, int]:
    """The best round's µs a request, and the status answered."""
    method, path = endpoint
    status = 0
    for _ in range(requests // 10):  # warm-up
        status = await call(app, method, path)
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(requests):
            await call(app, method, path)
        best = min(best, (time.perf_counter() - started) / requests * 1e6)
    return best, status


def route_position(app: FastAPI, method: str, path: str) -> str:
    """Where the route answering the request sits among the app's routes ("7 of 52"): FastAPI tries them in order."""
    scope = {"type": "http", "method": method, "path": path, "root_path": ""}
    routes = app.router.routes
    for index, route in enumerate(routes, start=1):
        if route.matches(scope)[0] is Match.FULL:
            return f"{index} of {len(routes)}"
    return f"- of {len(routes)}"


@asynccontextmanager
async def started(app: FastAPI) -> AsyncIterator[FastAPI]:
    async with app.router.lifespan_context(app):
        yield app


def gateway(directory: Path) -> AbstractAsyncContextManager[FastAPI]:
    from gateway.app import create_app
    from gateway.settings import Settings

    settings = Settings.model_validate(
        {
            "database_url": f"sqlite+aiosqlite:///{directory / 'gateway.db'}",
            "demo_bots": False,
            "rate_limit_per_second": 1e6,
            "rate_limit_burst": 10**6,
            "anonymous_rate_limit_per_second": 1e6,
            "anonymous_rate_limit_burst": 10**6,
        }
    )
    return started(create_app(settings, bus=InMemoryBus()))


def wallet(directory: Path) -> AbstractAsyncContextManager[FastAPI]:
    from wallet.app import create_app
    from wallet.settings import Settings

    settings = Settings(database_url=f"sqlite+aiosqlite:///{directory / 'wallet.db'}")
    return started(create_app(settings, bus=InMemoryBus()))


def totalizator(directory: Path) -> AbstractAsyncContextManager[FastAPI]:
    from totalizator.app import create_app
    from totalizator.settings import Settings

    settings = Settings(database_url=f"sqlite+aiosqlite:///{directory / 'totalizator.db'}")
    return started(create_app(settings, bus=InMemoryBus()))


#: Each service's busiest routes, as its callers send them (concrete paths).
SERVICES: list[tuple[str, Callable[[Path], AbstractAsyncContextManager[FastAPI]], list[Endpoint]]] = [
    (
        "gateway",
        gateway,
        [
            ("GET", "/api/v1/players/me"),
            ("POST", "/api/v1/tables/t-1/actions"),
            ("POST", "/api/v1/draws/d-1/coupons"),
            ("POST", "/api/v1/tournaments/t-1/registrations"),
            ("POST", "/api/v1/concessionaires/c-1/webhooks"),
        ],
    ),
    (
        "wallet",
        wallet,
        [
            ("POST", "/internal/v1/tournaments/t-1/entries"),
            ("POST", "/internal/v1/draws/d-1/stakes"),
            ("POST", "/internal/v1/partner/players/p-1/deposits"),
        ],
    ),
    ("totalizator", totalizator, [("POST", "/internal/v1/draws/d-1/coupons")]),
]


# The node-cost peers' dependencies, at module level: FastAPI resolves a route's annotations in its module's names.
async def key(idempotency_key: Annotated[str | None, Header()] = None) -> str | None:
    return idempotency_key


async def acting(x_concessionaire_id: Annotated[str | None, Header()] = None) -> str | None:
    return x_concessionaire_id


async def command_of_three(
    key: Annotated[str | None, Depends(key)], acting: Annotated[str | None, Depends(acting)]
) -> tuple[str | None, str | None]:
    return key, acting


async def command_in_one(
    idempotency_key: Annotated[str | None, Header()] = None,
    x_concessionaire_id: Annotated[str | None, Header()] = None,
) -> tuple[str | None, str | None]:
    return idempotency_key, x_concessionaire_id


def bare_app() -> FastAPI:
    """The floor: FastAPI with one route, whose one async dependency refuses; no middleware of the kit's. Beside
    it, what a dependency node costs: two routes that read the same two headers and answer, one through a
    dependency that reads them itself (as the wallet's commands do), one through two sub-dependencies of it."""
    app = FastAPI()

    async def refuse() -> None:
        raise HTTPException(status_code=401, detail="no credentials")

    @app.post("/refused", dependencies=[Depends(refuse)])
    async def refused() -> dict[str, str]:
        return {}

    @app.post("/three-nodes")
    async def three_nodes(command: Annotated[tuple[str | None, str | None], Depends(command_of_three)]) -> None:
        return None

    @app.post("/one-node")
    async def one_node(command: Annotated[tuple[str | None, str | None], Depends(command_in_one)]) -> None:
        return None

    return app


PEERS: list[tuple[Endpoint, str]] = [
    (("POST", "/refused"), "one refusing dependency"),
    (("POST", "/three-nodes"), "2 headers, 2 sub-dependencies"),
    (("POST", "/one-node"), "2 headers, 1 dependency"),
]


async def main(requests: int, rounds: int) -> None:
    rows: list[tuple[str, str, str, int, float]] = []
    # ignore_cleanup_errors: a service may still be finishing a write to its SQLite file as the last app stops.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as directory:
        for name, start, endpoints in SERVICES:
            async with start(Path(directory)) as app:
                for method, path in [*endpoints, ("GET", "/healthz")]:
                    us, status = await microseconds(app, (method, path), requests, rounds)
                    position = route_position(app, method, path)
                    rows.append((name, f"{method} {path}", position, status, us))
    bare = bare_app()
    for (method, path), what in PEERS:
        us, status = await microseconds(bare, (method, path), requests, rounds)
        position = route_position(bare, method, path)
        rows.append(("peer: bare FastAPI", f"{method} {path} ({what})", position, status, us))
    print(f"in process, raw ASGI, no credentials; best of {rounds} rounds of {requests} requests")
    print(f"{'app':<20}{'request':<48}{'route':>10}{'status':>8}{'µs':>9}")
    for app_name, request, position, status, us in rows:
        print(f"{app_name:<20}{request:<48}{position:>10}{status:>8}{us:>9.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    asyncio.run(main(options.requests, options.rounds))
