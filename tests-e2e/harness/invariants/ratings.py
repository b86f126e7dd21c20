"""Ratings reflect both tournaments (P-11.1, P-11.8): every ranked player's rating history has exactly one award
for each tournament, at the position the director ranked them, computed from the prize pool from entries
(rebuys and add-ons included, guarantee overlay excluded)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def rating_problems(
    tournament_id: str,
    positions: Mapping[str, int],
    pool_from_entries: int,
    histories: Mapping[str, Sequence[Mapping[str, Any]]],
) -> list[str]:
    """`histories`: player → the `history` of their rating (the rating service's `GET …/rating`)."""
    problems = []
    for player, position in sorted(positions.items()):
        steps = [step for step in histories.get(player, ()) if step["tournament_id"] == tournament_id]
        if len(steps) != 1:
            problems.append(f"{tournament_id}: {player} has {len(steps)} rating awards for it (must be one)")
            continue
        step = steps[0]
        if step["position"] != position:
            problems.append(f"{tournament_id}: {player} rated at position {step['position']}, ranked {position}")
        if step["pool_cents"] != pool_from_entries:
            problems.append(
                f"{tournament_id}: {player} rated on a {step['pool_cents']}-cent pool, not {pool_from_entries}"
            )
    return problems
