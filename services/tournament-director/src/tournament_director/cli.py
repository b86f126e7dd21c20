"""The ``tournament-director`` command: an argparse program with subcommands.

    uv run tournament-director simulate --players 300 --seed 7 [--kind scheduled|sit_and_go]
        [--mode standard|shootout] [--buy-in 90+10] [--stack 10000] [--seconds-per-hand 60] [--rebuys]
        [--satellite-seat 100+10] [--json]

plays a whole tournament with bots on the real rules engine (`tournament_director.simulation`) and prints the
final ranking with each position's payout in cents, the prize pool, the hands played, the largest table-size
gap after the moves and the invariant checks; ``--json`` prints the same as one JSON object. The same options
give the same output. Exit status: 0, or 1 when the tournament cannot be set up or a check fails. Other
subcommands (``serve``…) plug in through ``build_parser``'s subparsers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from tournament_director.domain.issues import DefinitionError
from tournament_director.domain.kinds import TableMode, TournamentKind
from tournament_director.domain.run import RunError
from tournament_director.simulation import (
    SimulationError,
    SimulationOptions,
    SimulationReport,
    parse_price,
    simulate,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tournament-director", description="The tournament director of the platform.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = commands.add_parser(
        "simulate",
        help="play a whole tournament with bots and check its invariants",
        description="Play a whole tournament with bots on the real rules engine; print its ranking, payouts and checks.",
    )
    sim.add_argument("--players", type=int, required=True, help="entrants (scheduled: 10 or more)")
    sim.add_argument("--seed", type=int, required=True, help="seeds every random choice: same seed, same output")
    sim.add_argument("--kind", choices=[kind.value for kind in TournamentKind], default=TournamentKind.SCHEDULED.value)
    sim.add_argument("--mode", choices=[mode.value for mode in TableMode], default=TableMode.STANDARD.value)
    sim.add_argument("--buy-in", type=parse_price, default="90+10", help="prize part + fee in euros (default 90+10)")
    sim.add_argument("--stack", type=int, default=SimulationOptions.starting_stack, help="starting stack")
    sim.add_argument(
        "--seconds-per-hand",
        type=int,
        default=SimulationOptions.seconds_per_hand,
        help="simulated time a hand takes: how fast the blind clock moves",
    )
    sim.add_argument("--rebuys", action="store_true", help="scheduled rebuy tournament (3 rebuys, one add-on)")
    sim.add_argument(
        "--satellite-seat",
        type=parse_price,
        default=None,
        help="a satellite paying seats at this price (prize part + fee in euros) in its target (P-3.4)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(handler=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.handler(args)
    return status


def _simulate(args: argparse.Namespace) -> int:
    options = SimulationOptions(
        players=args.players,
        seed=args.seed,
        kind=TournamentKind(args.kind),
        mode=TableMode(args.mode),
        buy_in=args.buy_in,
        starting_stack=args.stack,
        seconds_per_hand=args.seconds_per_hand,
        rebuys=args.rebuys,
        satellite_seat=args.satellite_seat,
    )
    try:
        report = simulate(options)
    except DefinitionError as error:
        sys.stderr.write(
            "".join(f"invalid tournament: {issue['field']}: {issue['message']}\n" for issue in error.as_dicts())
        )
        return 1
    except (ValueError, RunError, SimulationError) as error:
        sys.stderr.write(f"simulation failed: {error}\n")
        return 1
    sys.stdout.write(json.dumps(report.to_json()) + "\n" if args.json else _text(report))
    return 0


def _text(report: SimulationReport) -> str:
    options = report.options
    hours, seconds = divmod(report.simulated_seconds, 3600)
    gap = "n/a (shoot-out tables do not balance)" if report.max_table_size_gap is None else report.max_table_size_gap
    lines = [
        f"{options.kind.value} tournament, {options.mode.value} tables: {options.players} players, seed {options.seed}",
        f"prize pool: {report.prize_pool_cents} cents (collected from {report.entries} entries: "
        f"{report.prize_pool_from_entries_cents}, guarantee overlay: {report.guarantee_overlay_cents})",
        f"hands played: {report.hands_played} in {report.table_rounds} table rounds; final level "
        f"{report.final_level}; {hours}h{seconds // 60:02d}m simulated",
        f"largest table-size gap after the moves: {gap}",
        "checks: " + ", ".join(f"{name} {'ok' if ok else 'FAILED'}" for name, ok in report.checks.items()),
        "final ranking (position, player, prize in cents):",
        *(
            f"{ranked.position:>6}  {ranked.player_id}  {'a seat in the target' if ranked.seat else ranked.prize_cents}"
            for ranked in report.ranking
        ),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
