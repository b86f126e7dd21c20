"""What one registration costs the tournament director (issue 14): its transactions and statements on its own
PostgreSQL database, and the process's CPU and wall time per registration.

The director runs in process with the real wallet and rating apps behind httpx's ASGI transport (as its tests
do), the director on PostgreSQL, the wallet and the rating on SQLite files; `players` funded players register
to one scheduled tournament with a buy-in, first one at a time, then `concurrency` at a time. The CPU is the
whole process's (the wallet and the rating answer in it too): compare runs, not services. A registration
answered "come back" (503 `outcome_pending` past the director's deadline or `director_busy`, 409
`idempotency_key_in_flight`: each with Retry-After) is repeated with the same Idempotency-Key after it, as a
client does: `retried` counts those answers, `max s` is the longest a registration took from its first request
to its 201.

    uv run python bench/bench_registration.py [--players 200] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.db import Database
from platform_kit.testing import DatabaseTraffic, create_database, drop_database, running_app
from rating.app import create_app as rating_app
from rating.settings import Settings as RatingSettings
from tournament_director.app import create_app as director_app
from tournament_director.settings import Settings as DirectorSettings
from wallet.app import create_app as wallet_app
from wallet.settings import Settings as WalletSettings

TOKEN = "dev-internal-token"
START = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
ADMIN = {"X-Internal-Token": TOKEN, "X-Principal-Role": "admin", "X-Principal-Id": "admin-1"}


async def register(director: httpx.AsyncClient, tournament_id: str, player: str) -> int:
    """Registered (201), repeating the request with the same key while it is answered with a Retry-After; how many
    times."""
    headers = {
        "X-Internal-Token": TOKEN,
        "X-Principal-Role": "player",
        "X-Principal-Id": player,
        "X-Concessionaire-Id": "c1",
        "Idempotency-Key": uuid.uuid4().hex,
    }
    retried = 0
    while True:
        answer = await director.post(
            f"/internal/v1/tournaments/{tournament_id}/registrations",
            json={"player_id": player, "concessionaire_id": "c1"},
            headers=headers,
        )
        if "Retry-After" not in answer.headers:
            assert answer.status_code == 201, answer.text
            return retried
        retried += 1
        await asyncio.sleep(float(answer.headers["Retry-After"]))


async def fund(wallet: httpx.AsyncClient, player: str) -> None:
    headers = {"X-Internal-Token": TOKEN, "X-Concessionaire-Id": "c1"}
    path = f"/internal/v1/partner/players/{player}"
    opened = await wallet.post(
        f"{path}/accounts", json={"currency": "EUR"}, headers={**headers, "Idempotency-Key": f"open:{player}"}
    )
    assert opened.status_code in (200, 201), opened.text
    deposit = await wallet.post(
        f"{path}/deposits", json={"currency": "EUR", "amount": 10_000}, headers={**headers, "Idempotency-Key": player}
    )
    assert deposit.status_code == 201, deposit.text


async def phase(
    name: str, director: httpx.AsyncClient, db: Database, tournament_id: str, players: list[str], concurrency: int
) -> None:
    gate = asyncio.Semaphore(concurrency)
    retried: list[int] = []
    took: list[float] = []

    async def one(player: str) -> None:
        async with gate:
            began = time.perf_counter()
            retried.append(await register(director, tournament_id, player))
            took.append(time.perf_counter() - began)

    cpu, wall = time.process_time(), time.perf_counter()
    with DatabaseTraffic() as traffic:
        await asyncio.gather(*(one(player) for player in players))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    n, director_db = len(players), str(db.engine.url.database)
    print(
        f"{name:<14} {n:>5} {traffic.commits[director_db] / n:>13.2f} {traffic.statements[director_db] / n:>14.2f} "
        f"{1000 * cpu / n:>10.1f} {1000 * wall / n:>11.1f} {n / wall:>8.1f} {sum(retried):>8} {max(took):>6.1f}"
    )


async def main(players: int, concurrency: int) -> None:
    url = await create_database()
    bus = InMemoryBus()
    clock = FrozenClock(START)
    try:
        with tempfile.TemporaryDirectory() as folder:
            wallet = wallet_app(
                WalletSettings(database_url=f"sqlite+aiosqlite:///{Path(folder)}/wallet.db"), bus=bus, clock=clock
            )
            rating = rating_app(
                RatingSettings(database_url=f"sqlite+aiosqlite:///{Path(folder)}/rating.db"), bus=bus, clock=clock
            )
            director = director_app(
                DirectorSettings(database_url=url, lobby_schedule=[], clock_interval_seconds=3600.0),
                bus=bus,
                clock=clock,
                rng=random.Random(1),
                wallet_transport=httpx.ASGITransport(app=wallet),
                rating_transport=httpx.ASGITransport(app=rating),
            )
            async with (
                running_app(wallet, "http://wallet") as wallet_http,
                rating.router.lifespan_context(rating),
                running_app(director, "http://director") as director_http,
            ):
                names = [f"p{n:05d}" for n in range(2 * players)]
                for name in names:
                    await fund(wallet_http, name)
                body = {
                    "template": "scheduled_mtt",
                    "name": "Bench",
                    "buy_in": {"prize_part_cents": 900, "fee_cents": 100},
                    "starts_at": (START + timedelta(days=1)).isoformat(),
                    "concessionaire_id": "c1",
                }
                created = await director_http.post("/internal/v1/tournaments", json=body, headers=ADMIN)
                assert created.status_code == 201, created.text
                t = created.json()["tournament_id"]
                db = director.state.runtime.db
                print(f"{'':<14} {'regs':>5} {'commits/reg':>13} {'statements/reg':>14} {'cpu ms/reg':>10} "
                      f"{'wall ms/reg':>11} {'regs/s':>8} {'retried':>8} {'max s':>6}")  # fmt: skip
                await phase("sequential", director_http, db, t, names[:players], 1)
                await phase(f"concurrent {concurrency}", director_http, db, t, names[players:], concurrency)
    finally:
        await bus.close()
        await drop_database(url)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=20)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.concurrency))
