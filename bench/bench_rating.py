"""Rating benchmark: one million players with a year of tournaments (P-11).

Builds per-player summaries the way the service does (awards folded in day order with `apply_award`),
then times what the service needs every day:

- `compute_tiers`: every player's tier on a day, from the summaries (rank by exact rating, quintiles);
- a single player's tier from the day's stored `TierCutoffs` (what an eligibility check costs);
- `tier_changes` between two consecutive days (the tier-changed events);
- `Leaderboard.build` in full, then page 1 and a deep page of 50 players from it;
- `Leaderboard.build(depth=50)`: page 1 straight from the summaries, without sorting everyone.

Player mix: 5% never played (ESORDIENTE), 10% last played 1-2 years ago (INATTIVO), 85% played in the
last 360 days, 1 + Poisson-like ~6 tournaments each, in pools from EUR 9 to EUR 27,000.

Then, through the running service on the real PostgreSQL (skipped if it is not reachable), with
`--service-players` summaries and nicknames loaded straight into its tables: the daily tier job
(`POST /internal/v1/jobs/tiers`), and the latency of a leaderboard page (first and deep) and of an
eligibility check, over the ASGI transport (no network).

    uv run python bench/bench_rating.py [--players 1000000] [--service-players 100000] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import random
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timedelta
from datetime import time as dt_time
from typing import TypeVar
from zoneinfo import ZoneInfo

import httpx
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.db import Database
from platform_kit.testing import POSTGRES_ADMIN_URL, create_database, drop_database
from rating.adapters.orm import players, rating_summaries
from rating.adapters.sql import chunks
from rating.app import create_app
from rating.domain import (
    CLASSIFIED_TIERS,
    Award,
    Leaderboard,
    RatingSummary,
    Tier,
    apply_award,
    compute_tiers,
    tier_changes,
    tournament_points,
)
from rating.settings import Settings

T = TypeVar("T")
DAY = date(2025, 6, 30)
PAGE_SIZE = 50
REQUESTS = 200  # per latency measurement
# (field size, prize part per entry in cents): the tournaments players enter, weighted towards small ones.
TOURNAMENTS = [(10, 90), (18, 450), (45, 900), (100, 180), (180, 900), (300, 2_250), (1_000, 450), (3_000, 900)]
TOURNAMENT_WEIGHTS = [25, 20, 15, 12, 10, 8, 6, 4]
ALL_TIERS_SHOWN = (*CLASSIFIED_TIERS, Tier.ESORDIENTE, Tier.INATTIVO)


def timed(work: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def build_summaries(players: int, rng: random.Random) -> tuple[list[RatingSummary], int]:
    """One summary per player, from awards folded in day order; returns them and the award count."""
    points_cache: dict[tuple[int, int], int] = {}
    pick_tournament = [t for t, weight in zip(TOURNAMENTS, TOURNAMENT_WEIGHTS, strict=True) for _ in range(weight)]
    days = [DAY - timedelta(days=n) for n in range(730)]
    summaries: list[RatingSummary] = []
    awards = 0
    for n in range(players):
        player = f"player-{n:07d}"
        kind = rng.random()
        summary = RatingSummary(player)
        if kind >= 0.05:
            oldest, newest = (359, 0) if kind >= 0.15 else (729, 361)  # active, or INATTIVO
            count = 1 + min(40, int(rng.expovariate(1 / 6)))
            for age in sorted((rng.randint(newest, oldest) for _ in range(count)), reverse=True):
                field, prize_part = pick_tournament[int(rng.random() * len(pick_tournament))]
                key = (field * prize_part, 1 + int(rng.random() * field))
                points = points_cache.get(key)
                if points is None:
                    points = points_cache[key] = tournament_points(*key)
                summary = apply_award(summary, Award(player, f"t{awards}", days[age], points))
                awards += 1
        summaries.append(summary)
    return summaries, awards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--service-players", type=int, default=100_000, help="0 skips the service bench")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows: list[tuple[str, str, float]] = []

    (summaries, awards), seconds = timed(lambda: build_summaries(args.players, rng))
    rows.append(("build summaries (generate + apply_award)", f"{awards:,} awards", seconds))

    table, seconds = timed(lambda: compute_tiers(summaries, DAY))
    rows.append(("compute_tiers, all players", f"{len(summaries):,} players", seconds))

    sample = rng.sample(summaries, k=min(100_000, len(summaries)))
    _, seconds = timed(lambda: [table.cutoffs.tier_for(s) for s in sample])
    rows.append(("one player's tier from stored cutoffs", "per lookup", seconds / len(sample)))

    next_day = DAY + timedelta(days=1)
    next_table, seconds = timed(lambda: compute_tiers(summaries, next_day))
    changes, diff_seconds = timed(lambda: tier_changes(table, next_table))
    rows.append(("compute_tiers for the next day", f"{len(summaries):,} players", seconds))
    rows.append(("tier_changes between the two days", f"{len(changes):,} changes", diff_seconds))

    board, seconds = timed(lambda: Leaderboard.build(summaries, DAY))
    rows.append(("Leaderboard.build (full sort)", f"{board.active_count:,} active", seconds))
    _, seconds = timed(lambda: board.page(1, PAGE_SIZE))
    rows.append(("  page 1 of 50 from the built board", "", seconds))
    deep = board.active_count // PAGE_SIZE // 2 or 1
    _, seconds = timed(lambda: board.page(deep, PAGE_SIZE))
    rows.append((f"  page {deep:,} of 50 from the built board", "", seconds))
    top, seconds = timed(lambda: Leaderboard.build(summaries, DAY, depth=PAGE_SIZE))
    assert top.page(1, PAGE_SIZE) == board.page(1, PAGE_SIZE)
    rows.append(("page 1 straight from summaries (depth=50)", "", seconds))

    width = max(len(name) for name, _, _ in rows)
    print(f"{'operation':<{width}}  {'size':>22}  {'time':>12}")
    for name, size, seconds in rows:
        shown = f"{seconds * 1e6:9.2f} us" if seconds < 1e-3 else f"{seconds:10.3f} s"
        print(f"{name:<{width}}  {size:>22}  {shown:>12}")
    counts = Counter(table.tiers.values())
    print("tiers on", DAY, ":", ", ".join(f"{t.label} {counts[t]:,}" for t in ALL_TIERS_SHOWN))
    if args.service_players:
        asyncio.run(service_bench(args.service_players, random.Random(args.seed)))


async def service_bench(players_count: int, rng: random.Random) -> None:
    try:
        url = await create_database()
    except OSError as error:
        print(f"\nservice bench skipped: PostgreSQL is not reachable at {POSTGRES_ADMIN_URL} ({error})")
        return
    summaries, _ = build_summaries(players_count, rng)
    try:
        await measure_service(url, summaries)
    finally:
        await drop_database(url)


async def measure_service(url: str, summaries: list[RatingSummary]) -> None:
    # 10:00 in Rome the day after DAY: DAY is the last closed day.
    now = datetime.combine(DAY + timedelta(days=1), dt_time(10), ZoneInfo("Europe/Rome"))
    settings = Settings(database_url=url, tier_job_interval_seconds=3600, sanction_expiry_interval_seconds=3600)
    clock = FrozenClock(now)
    app = create_app(settings, bus=InMemoryBus(), clock=clock)
    headers = {"X-Internal-Token": settings.internal_token}
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rating", headers=headers) as http,
    ):
        seconds = await load(app.state.runtime.db, summaries, now)
        print(f"\nservice on PostgreSQL: {len(summaries):,} players loaded in {seconds:.1f} s")
        for label, day in (("first run, everyone classified", DAY), ("next day", DAY + timedelta(days=1))):
            clock.set(now + (day - DAY))
            started = time.perf_counter()
            run = (await http.post("/internal/v1/jobs/tiers", json={"day": day.isoformat()})).json()
            print(
                f"tier job for {day} ({label}): {time.perf_counter() - started:.2f} s "
                f"({run['active_count']:,} active, {run['changes']:,} tier changes published)"
            )
        deep = max(1, run["active_count"] // PAGE_SIZE // 2)
        for number in (1, deep):
            page = functools.partial(http.get, "/v1/leaderboard", params={"page": number, "size": PAGE_SIZE})
            print(latency(f"GET /v1/leaderboard page {number:,}", await timings(page)))
        players_asked = itertools.cycle(s.player_id for s in random.Random(1).sample(summaries, k=len(summaries) // 2))
        policy = {"allowed_tiers": ["GRUPPO_UNO", "GRUPPO_DUE"]}
        print(
            latency(
                "POST /internal/v1/eligibility",
                await timings(
                    lambda: http.post("/internal/v1/eligibility", json=policy | {"player_id": next(players_asked)})
                ),
            )
        )


async def load(db: Database, summaries: list[RatingSummary], now: datetime) -> float:
    """Summaries and nicknames straight into the service's tables, as years of results would leave them."""
    started = time.perf_counter()
    async with db.transaction() as session:
        for chunk in chunks([s for s in summaries if s.last_day is not None], 5_000):
            rows = [{"player_id": s.player_id, "last_day": s.last_day, "value": s.value} for s in chunk]
            await session.execute(rating_summaries.insert(), rows)
        for chunk in chunks(summaries, 5_000):
            rows = [
                {
                    "player_id": s.player_id,
                    "nickname": f"nick-{s.player_id}",
                    "concessionaire_id": "room",
                    "registered_at": now,
                }
                for s in chunk
            ]
            await session.execute(players.insert(), rows)
    return time.perf_counter() - started


async def timings(request: Callable[[], Awaitable[httpx.Response]]) -> list[float]:
    """Seconds per request, one at a time, after a few warm-up requests."""
    for _ in range(5):
        (await request()).raise_for_status()
    seconds = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        (await request()).raise_for_status()
        seconds.append(time.perf_counter() - start)
    return seconds


def latency(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p50, p95 = statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]
    return f"{label:<40} p50 {p50 * 1e3:7.2f} ms   p95 {p95 * 1e3:7.2f} ms   ({len(ordered)} requests)"


if __name__ == "__main__":
    main()
