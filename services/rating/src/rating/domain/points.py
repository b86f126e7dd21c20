"""Points a finished tournament awards to each player (P-11.1, P-11.8, P-2.4).

points = sqrt(prize pool from entries, in euros) / sqrt(final position), as integer micro-points
(see `fixed_point`). Worked example of P-11.1: pool EUR 100 (10_000 cents), 4th place -> 10 / 2 = 5 points.
"""

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from ._time import require_aware
from .errors import InvalidTournamentResult
from .fixed_point import div_round_half_even, sqrt_round_half_even

# points in micro-points = 10^6 * sqrt(cents / 100 / position) = sqrt(cents * 10^10 / position)
_MICRO_SQUARED_PER_CENT = 10**12 // 100


@dataclass(frozen=True, slots=True)
class Finish:
    """Where one player finished. Players still tied (P-2.4) occupy the positions
    `position` .. `position + tied_positions - 1` and each reports the group's best position."""

    player_id: str
    position: int
    tied_positions: int = 1


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished tournament as the rating needs it.

    The pool is given in its parts, all prize parts (P-8.1) in cents: entries (buy-ins, satellite and
    sponsored entries, P-3.4, P-9.2), rebuys and add-ons (P-11.8). There is deliberately no field for the
    guarantee: its overlay never counts (P-11.1). A cancelled tournament (P-10) has no final ranking and
    so no result. `day` is the rating day the tournament finished on (see `award_day`).
    """

    tournament_id: str
    day: date
    entries_cents: int
    finishes: tuple[Finish, ...]
    rebuys_cents: int = 0
    addons_cents: int = 0

    @property
    def rating_pool_cents(self) -> int:
        """The prize pool from entries of P-11.1: entries + rebuys + add-ons (P-11.8)."""
        return self.entries_cents + self.rebuys_cents + self.addons_cents


@dataclass(frozen=True, slots=True)
class Award:
    """The points one player earned in one tournament, counted from `day` on. Zero points still count
    as a tournament played (P-11.3's activity)."""

    player_id: str
    tournament_id: str
    day: date
    points: int


def award_day(finished_at: datetime, zone: tzinfo) -> date:
    """The rating day of a tournament: the calendar date, in the platform's reference time zone
    (Europe/Rome for this network, injected), of the moment the tournament finished."""
    require_aware(finished_at, "finished_at")
    return finished_at.astimezone(zone).date()


def tournament_points(pool_cents: int, position: int) -> int:
    """P-11.1: sqrt(pool in euros) / sqrt(position), in micro-points rounded half-even."""
    if pool_cents < 0:
        raise InvalidTournamentResult("the prize pool cannot be negative")
    if position < 1:
        raise InvalidTournamentResult("positions start at 1")
    return sqrt_round_half_even(pool_cents * _MICRO_SQUARED_PER_CENT, position)


def tied_points(pool_cents: int, position: int, tied_positions: int) -> int:
    """Players tied over several positions share their points equally, as they share prizes (P-2.4):
    the mean of the positions' points, rounded half-even."""
    total = sum(tournament_points(pool_cents, p) for p in range(position, position + tied_positions))
    return div_round_half_even(total, tied_positions)


def awards_for(result: TournamentResult) -> tuple[Award, ...]:
    """One award per finisher, in the order of `result.finishes`."""
    if min(result.entries_cents, result.rebuys_cents, result.addons_cents) < 0:
        raise InvalidTournamentResult("pool parts cannot be negative")
    _check_positions(result.finishes)
    pool = result.rating_pool_cents
    points_of_group = {
        (f.position, f.tied_positions): tied_points(pool, f.position, f.tied_positions) for f in result.finishes
    }
    return tuple(
        Award(f.player_id, result.tournament_id, result.day, points_of_group[f.position, f.tied_positions])
        for f in result.finishes
    )


def _check_positions(finishes: tuple[Finish, ...]) -> None:
    """Positions must be exactly 1..N: every group of k tied players starts right after the previous."""
    if not finishes:
        raise InvalidTournamentResult("a finished tournament has at least one player")
    if len({f.player_id for f in finishes}) != len(finishes):
        raise InvalidTournamentResult("a player finishes a tournament once")
    groups = Counter((f.position, f.tied_positions) for f in finishes)
    next_position = 1
    for (position, tied), count in sorted(groups.items()):
        if tied < 1 or count != tied or position != next_position:
            raise InvalidTournamentResult(
                f"positions must run 1..{len(finishes)} with each tie group of k players reported by "
                f"k players; found {count} player(s) at position {position} tied over {tied}"
            )
        next_position += tied
