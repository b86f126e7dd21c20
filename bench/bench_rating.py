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

    uv run python bench/bench_rating.py [--players 1000000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from typing import TypeVar

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

T = TypeVar("T")
DAY = date(2025, 6, 30)
PAGE_SIZE = 50
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


if __name__ == "__main__":
    main()
