"""Tournament simulation benchmark: scheduled tournaments played to the end by bots (TournamentRun + rules engine).

For each field size, plays one seeded tournament with `tournament_director.simulation.simulate` (standard tables
of nine, the scheduled template's blind structure, 10,000 chips, 60 simulated seconds per hand) and prints the
wall time, the hands played and hands per second, and where the time went: dealing and playing the hands (rules
engine + bots) versus the director (`TournamentRun` calls: results, planning, clock, eliminations). The rest is
the simulator's own bookkeeping and invariant checks. Goal: 3,000 players to the end in under a minute.

    uv run python bench/bench_tournament.py [--players 300 1000 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from tournament_director.domain.run import TournamentRun
from tournament_director.simulation import SimulationOptions, simulate
from tournament_director.simulation.table import SimTable

#: Seconds spent in each timed part during the current simulation.
SPENT: dict[str, float] = {}


def _timed(part: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[part] = SPENT.get(part, 0.0) + time.perf_counter() - start

    return wrapper


def _instrument() -> None:
    """Time the engine's part and the director's calls (the simulation code itself is unchanged)."""
    SimTable.play_hand = _timed("engine", SimTable.play_hand)  # type: ignore[method-assign]
    for name in ("on_hands_completed", "on_clock", "rebuy", "decline_rebuy", "addon", "addon_refusal"):
        setattr(TournamentRun, name, _timed("director", getattr(TournamentRun, name)))
    start = TournamentRun.start.__func__  # type: ignore[attr-defined]
    TournamentRun.start = classmethod(_timed("director", start))  # type: ignore[method-assign, assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[300, 1_000, 3_000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    _instrument()
    header = (
        f"{'players':>8} {'hands':>8} {'rounds':>7} {'wall s':>7} {'hands/s':>8} "
        f"{'engine s':>9} {'director s':>10} {'director %':>10} {'sim hours':>9}"
    )
    print(header)
    print("-" * len(header))
    for players in args.players:
        SPENT.clear()
        start = time.perf_counter()
        report = simulate(SimulationOptions(players=players, seed=args.seed))
        wall = time.perf_counter() - start
        assert all(report.checks.values()), report.checks
        director = SPENT.get("director", 0.0)
        print(
            f"{players:>8,} {report.hands_played:>8,} {report.table_rounds:>7,} {wall:>7.2f} "
            f"{report.hands_played / wall:>8,.0f} {SPENT.get('engine', 0.0):>9.2f} {director:>10.2f} "
            f"{100 * director / wall:>9.1f}% {report.simulated_seconds / 3600:>9.1f}"
        )


if __name__ == "__main__":
    main()
