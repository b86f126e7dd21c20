"""A player's rating: a pure function of their awards and the day asked about (P-11.2).

Definition. Take the player's awards in day order and fold them day by day:
    value(first award day)  = the points awarded that day
    value(next award day d) = decay(value(previous award day), d - previous) + the points awarded on d
    rating(D)               = decay(value(last award day <= D), D - that day), and 0 before any award
`decay` rounds once per step (see `decay`); the rating is therefore the exact sum of points * 0.98^age
to within half a micro-point per award day, and it is the same integer in every process, whatever order
the awards arrived in. Same-day awards are simply added, so their order never matters.

The fold's state is the `RatingSummary` (one SQL row): a new award on or after its day updates it in O(1)
(`apply_award`). An award for an earlier day (a late result) changes the past, so the summary is rebuilt
from the player's stored awards (`summarize`), giving exactly what in-order arrival would have given.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from .decay import decay
from .errors import AwardOutOfOrder, ConflictingAward, SummaryAfterDay
from .points import Award


@dataclass(frozen=True, slots=True)
class RatingSummary:
    """Per-player rating state: `value` micro-points at the end of `last_day`, the player's last award
    day (None: never played, P-11.4)."""

    player_id: str
    last_day: date | None = None
    value: int = 0


def apply_award(summary: RatingSummary, award: Award) -> RatingSummary:
    """The summary after one more award, dated on or after `summary.last_day`.

    Not idempotent by itself: the caller applies an award only if `is_new_award` says so (the service
    keeps a unique (player, tournament) key on its award table).
    """
    if award.player_id != summary.player_id:
        raise ValueError(f"award for {award.player_id} applied to {summary.player_id}")
    if award.points < 0:
        raise ValueError("points are never negative")
    if summary.last_day is None:
        return RatingSummary(summary.player_id, award.day, award.points)
    if award.day < summary.last_day:
        raise AwardOutOfOrder(f"award of {award.day} arrived after one of {summary.last_day}: rebuild with summarize()")
    carried = decay(summary.value, (award.day - summary.last_day).days)
    return RatingSummary(summary.player_id, award.day, carried + award.points)


def summarize(player_id: str, awards: Iterable[Award], *, as_of: date | None = None) -> RatingSummary:
    """The summary from scratch: the player's awards in any order, each tournament counted once
    (an identical repeat is ignored, a conflicting one refused). With `as_of`, only awards up to that
    day count, which answers any past day."""
    unique: dict[str, Award] = {}
    for award in awards:
        if award.player_id != player_id:
            raise ValueError(f"award for {award.player_id} in the history of {player_id}")
        if is_new_award(unique.get(award.tournament_id), award):
            unique[award.tournament_id] = award
    summary = RatingSummary(player_id)
    for award in sorted(unique.values(), key=lambda a: a.day):
        if as_of is None or award.day <= as_of:
            summary = apply_award(summary, award)
    return summary


def is_new_award(recorded: Award | None, incoming: Award) -> bool:
    """Exactly-once by tournament: False for a repeat of the recorded award, True when nothing is
    recorded for that tournament yet; a different award for the same tournament is refused."""
    if recorded is None:
        return True
    if recorded != incoming:
        raise ConflictingAward(
            f"tournament {incoming.tournament_id} already awarded {recorded.points} micro-points on "
            f"{recorded.day} to {incoming.player_id}; now {incoming.points} on {incoming.day}"
        )
    return False


def rating_on(summary: RatingSummary, day: date) -> int:
    """The rating in micro-points on `day` (its awards included): fast, from the summary alone."""
    require_anchored_by(summary, day)
    if summary.last_day is None:
        return 0
    return decay(summary.value, (day - summary.last_day).days)


def require_anchored_by(summary: RatingSummary, day: date) -> None:
    """A summary answers for days from its last award on; earlier days need the award history."""
    if summary.last_day is not None and day < summary.last_day:
        raise SummaryAfterDay(
            f"summary of {summary.player_id} is anchored at {summary.last_day}, after {day}: "
            "use summarize(..., as_of=day)"
        )


def rating_as_of(player_id: str, awards: Iterable[Award], day: date) -> int:
    """The rating on any `day`, from the award history (the definition; `rating_on` is the fast path)."""
    return rating_on(summarize(player_id, awards, as_of=day), day)
