"""The director's internal events: what one use case tells the next, reacted to after its commit, each reaction
in a unit of work of its own (`platform_kit.unit_of_work`; the reactions are listed in `bootstrap`).

A payment that fills a sit'n'go commits; then the sit'n'go starts. The hand that ends a run commits; then the
tournament is settled. A satellite's settlement commits; then its seats are issued. None of them waits in the
other's transaction, and no use case module imports the next one. Each event names its tournament only: a
reaction reads the state as it is when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SitAndGoFilled:
    """Its last seat was paid for (P-3.1): start it."""

    tournament_id: str


@dataclass(frozen=True)
class RunFinished:
    """The run ranked everyone (P-8): settle the tournament."""

    tournament_id: str


@dataclass(frozen=True)
class SatelliteSettled:
    """A finished satellite's prizes were recorded: issue the seats its winners took in its target (P-3.4)."""

    tournament_id: str
