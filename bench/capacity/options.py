"""What a capacity run does: the scenario, its size, the platform's shape and the bots' pace, with the issue's
defaults and the `--ci` preset."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, replace

SCENARIOS = ("mtt", "sng", "toto-rush")
HUMAN_THINK = (2.0, 8.0)
FAST_THINK = (0.0, 0.2)
ROUNDS_PER_HAND = 4
SEATS_PER_TABLE = 9
#: Bots one load-generator process drives before a second one is worth its share of the two cores.
BOTS_PER_PROCESS = 1500


@dataclass(frozen=True)
class Options:
    scenario: str = "mtt"
    seed: int = 20261129
    shards: int = 2
    gateways: int = 2
    #: 0: one process per `BOTS_PER_PROCESS` bots, at most two.
    load_processes: int = 0
    # mtt
    players: int = 3000
    #: mtt: the registration window; sng: the window in which the sit'n'gos fill; toto-rush: the window before
    #: bets close in which the coupons come. None: 120 s, 10 s for sit'n'gos (they start at once).
    window_seconds: float | None = None
    fast: bool = False
    #: Human pace only: seconds of play at human pace; then the bots play fast to the end, so that every
    #: invariant (prizes, rankings) can be checked.
    duration_seconds: float = 300.0
    # sng
    tables: int = 100
    # toto-rush
    coupons: int = 20_000
    coupons_per_bettor: int = 10
    system_share: float = 0.3
    #: None: the pace's own (human or fast).
    think: tuple[float, float] | None = None
    #: None: 10 s fast, 60 s at human pace.
    level_seconds: int | None = None
    #: From the start of the play to the end of every tournament or the draw's last payout.
    play_timeout: float = 1800.0
    #: A tournament whose tables show no new chip counts for this long has stalled. None: `stall_after`.
    stall_seconds: float | None = None
    #: Between two readings of the queues: each `rabbitmqctl` call boots an Erlang VM (about a second of one of
    #: the two cores the platform runs on), so every 5 s took a tenth of the machine from the run it measures.
    queue_sample_seconds: float = 15.0

    @property
    def window(self) -> float:
        if self.window_seconds is not None:
            return self.window_seconds
        return 10.0 if self.scenario == "sng" else 120.0

    @property
    def think_range(self) -> tuple[float, float]:
        if self.think is not None:
            return self.think
        return FAST_THINK if self.fast else HUMAN_THINK

    @property
    def human_seconds(self) -> float | None:
        """How long the bots think at the human range before speeding up; None: the whole play at one pace."""
        if self.scenario == "toto-rush" or self.fast or self.think is not None:
            return None
        return self.duration_seconds

    @property
    def blind_level_seconds(self) -> int:
        if self.level_seconds is not None:
            return self.level_seconds
        return 60 if self.human_seconds is not None else 10

    @property
    def action_seconds(self) -> int:
        """The director's action clock: a bot at the slow end of its range is not timed out."""
        return math.ceil(max(self.think_range[1], HUMAN_THINK[1] if self.human_seconds else 0.0)) + 10

    @property
    def stall_after(self) -> float:
        """Chip counts change when a hand ends: a hand of four betting rounds at nine seats with every bot at the
        slow end of its range ends within this, 90 s at least. (A flat 90 s called the first hands of a
        3,000-player tournament at human pace a stall: they all started together and none had ended yet.)"""
        if self.stall_seconds is not None:
            return self.stall_seconds
        slowest = max(self.think_range[1], HUMAN_THINK[1] if self.human_seconds else 0.0)
        return max(90.0, ROUNDS_PER_HAND * SEATS_PER_TABLE * slowest)

    @property
    def bettors(self) -> int:
        return max(1, math.ceil(self.coupons / self.coupons_per_bettor))

    @property
    def bots(self) -> int:
        if self.scenario == "mtt":
            return self.players
        if self.scenario == "sng":
            return SEATS_PER_TABLE * self.tables
        return self.bettors

    @property
    def processes(self) -> int:
        return self.load_processes or min(2, math.ceil(self.bots / BOTS_PER_PROCESS))

    def describe(self) -> str:
        size = {
            "mtt": f"{self.players} players, registration window {self.window:.0f} s",
            "sng": f"{self.tables} nine-player sit'n'gos ({self.bots} players), filling within {self.window:.0f} s",
            "toto-rush": f"{self.coupons} coupons from {self.bettors} bettors in a {self.window:.0f} s window",
        }[self.scenario]
        if self.scenario == "toto-rush":
            return f"{self.scenario}: {size}"
        pace = f"think {self.think_range[0]:g}-{self.think_range[1]:g} s"
        if self.human_seconds is not None:
            pace += f" for {self.human_seconds:.0f} s, then {FAST_THINK[0]:g}-{FAST_THINK[1]:g} s to the end"
        return f"{self.scenario}: {size}; {pace}; blind levels {self.blind_level_seconds} s"


#: `--ci`: a few minutes on 2 shards and 2 gateways, every invariant checked.
CI = Options(scenario="mtt", players=300, window_seconds=20.0, fast=True, shards=2, gateways=2, play_timeout=900.0)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--scenario", choices=SCENARIOS, help="without it: the --ci preset")
    p.add_argument("--ci", action="store_true", help="300 players, mtt, fast, 2 shards, 2 gateways (a few minutes)")
    p.add_argument("--seed", type=int)
    p.add_argument("--shards", type=int, help="table-engine shards (default 2)")
    p.add_argument("--gateways", type=int, help="gateway instances behind one address (default 2)")
    p.add_argument("--load-processes", type=int, help="load-generator processes (default: 1 per 1,500 bots, max 2)")
    p.add_argument("--players", type=int, help="mtt: players (default 3,000)")
    p.add_argument(
        "--window",
        type=float,
        help="mtt: registration window; sng: filling window; toto-rush: closing window (s; 120, sng 10)",
    )
    p.add_argument("--fast", action="store_true", help="mtt, sng: think at most 0.2 s and play to the end")
    p.add_argument("--duration", type=float, help="mtt, sng at human pace: seconds before the bots speed up (300)")
    p.add_argument("--tables", type=int, help="sng: nine-player sit'n'gos at once (default 100)")
    p.add_argument("--coupons", type=int, help="toto-rush: coupons (default 20,000)")
    p.add_argument("--coupons-per-bettor", type=int, help="toto-rush: coupons per bettor (default 10, at most 100)")
    p.add_argument("--think", type=_range, help="think time range in seconds, e.g. 0.5,3")
    p.add_argument("--level-seconds", type=int, help="blind level length (default 10 fast, 60 at human pace)")
    p.add_argument("--play-timeout", type=float, help="seconds the play may take (default 1,800)")
    return p


def from_arguments(args: argparse.Namespace) -> Options:
    """The preset (`--ci`, or the scenario's defaults), then every option given on the command line."""
    base = CI if args.ci or args.scenario is None else Options(scenario=args.scenario)
    given = {
        "scenario": args.scenario,
        "seed": args.seed,
        "shards": args.shards,
        "gateways": args.gateways,
        "load_processes": args.load_processes,
        "players": args.players,
        "window_seconds": args.window,
        "fast": args.fast or None,
        "duration_seconds": args.duration,
        "tables": args.tables,
        "coupons": args.coupons,
        "coupons_per_bettor": args.coupons_per_bettor,
        "think": args.think,
        "level_seconds": args.level_seconds,
        "play_timeout": args.play_timeout,
    }
    options = replace(base, **{name: value for name, value in given.items() if value is not None})
    problems = validation_problems(options)
    if problems:
        raise SystemExit("bench_capacity: " + "; ".join(problems))
    return options


def validation_problems(options: Options) -> list[str]:
    checks = [
        (options.shards >= 1 and options.gateways >= 1, "--shards and --gateways must be at least 1"),
        (options.scenario != "mtt" or options.players >= 10, "an mtt needs at least 10 players (P-3.2)"),
        (options.tables >= 1, "--tables must be at least 1"),
        (0 < options.coupons_per_bettor <= 100, "--coupons-per-bettor must be 1 to 100"),
        (options.coupons >= 1, "--coupons must be at least 1"),
        (0 <= options.think_range[0] <= options.think_range[1], "--think LOW,HIGH with 0 <= LOW <= HIGH"),
    ]
    return [message for ok, message in checks if not ok]


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    try:
        return float(low), float(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LOW,HIGH in seconds") from None
