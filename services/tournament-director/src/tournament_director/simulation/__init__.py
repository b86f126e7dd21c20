"""Whole tournaments simulated in one process: `TournamentRun` on the real rules engine, played by bots.

    report = simulate(SimulationOptions(players=300, seed=7))
    report.ranking, report.payouts_cents, report.prize_pool_cents, report.hands_played, report.checks

The `tournament-director simulate` command and `bench/bench_tournament.py` are built on it.
"""

from tournament_director.simulation.setup import SimulationOptions, parse_price, simulation_definition
from tournament_director.simulation.simulator import SimulationReport, simulate
from tournament_director.simulation.table import SimulationError

__all__ = [
    "SimulationError",
    "SimulationOptions",
    "SimulationReport",
    "parse_price",
    "simulate",
    "simulation_definition",
]
