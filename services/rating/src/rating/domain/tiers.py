"""Skill tiers (P-11.3, P-11.4, P-11.8). Tiers are only ever derived from ratings: nothing sets one (P-11.6).

Definitions, for a day D:
- Active: the player's last tournament finished within the 360 days ending with D, i.e. on one of the
  days D-359 .. D (both included). Their last tournament 360 or more days before D: INATTIVO. No
  tournament ever (up to D): ESORDIENTE.
- Active players are ranked by `rating_on(D)`; a player's rank is 1 + the number of active players with a
  strictly higher rating, so tied players share the better rank (P-11.8: ties take the better tier).
- Five parts: with N active players the parts hold N // 5 players each, and the N % 5 players left over
  go one each to the best parts (N = 7 -> 2, 2, 1, 1, 1). Rank r falls in the first part whose cumulative
  size reaches r. With N < 5 the worst parts are empty: a lone active player is GRUPPO UNO.
"""

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from itertools import accumulate
from types import MappingProxyType

from .summary import RatingSummary, rating_on, require_anchored_by

ACTIVITY_WINDOW_DAYS = 360
_PARTS = 5


class Tier(StrEnum):
    GRUPPO_UNO = "GRUPPO_UNO"
    GRUPPO_DUE = "GRUPPO_DUE"
    GRUPPO_TRE = "GRUPPO_TRE"
    LISTED = "LISTED"
    CONDIZIONATA = "CONDIZIONATA"
    ESORDIENTE = "ESORDIENTE"
    INATTIVO = "INATTIVO"

    @property
    def italian_name(self) -> str:
        return _NAMES[self][0]

    @property
    def english_name(self) -> str:
        return _NAMES[self][1]

    @property
    def label(self) -> str:
        """The display label, Italian and English side by side: 'GRUPPO UNO (Group One)'."""
        return f"{self.italian_name} ({self.english_name})"


_NAMES = {
    Tier.GRUPPO_UNO: ("GRUPPO UNO", "Group One"),
    Tier.GRUPPO_DUE: ("GRUPPO DUE", "Group Two"),
    Tier.GRUPPO_TRE: ("GRUPPO TRE", "Group Three"),
    Tier.LISTED: ("LISTED", "Listed"),
    Tier.CONDIZIONATA: ("CONDIZIONATA", "Conditional"),
    Tier.ESORDIENTE: ("ESORDIENTE", "Newcomer"),
    Tier.INATTIVO: ("INATTIVO", "Inactive"),
}

# The five classified tiers, best first (P-11.3).
CLASSIFIED_TIERS = (Tier.GRUPPO_UNO, Tier.GRUPPO_DUE, Tier.GRUPPO_TRE, Tier.LISTED, Tier.CONDIZIONATA)


def is_active(last_day: date | None, day: date) -> bool:
    """A tournament in the 360 days ending with `day`: last_day in day-359 .. day."""
    return last_day is not None and 0 <= (day - last_day).days < ACTIVITY_WINDOW_DAYS


def active_rating(summary: RatingSummary, day: date) -> int | None:
    """The rating on `day` of a player active that day, None for anyone else; refuses a summary
    anchored after `day`."""
    require_anchored_by(summary, day)
    return rating_on(summary, day) if is_active(summary.last_day, day) else None


def _unclassified(summary: RatingSummary) -> Tier:
    return Tier.ESORDIENTE if summary.last_day is None else Tier.INATTIVO


def part_sizes(active_count: int) -> tuple[int, ...]:
    """How many ranks each classified tier holds, best first; the remainder goes to the best tiers."""
    base, extra = divmod(active_count, _PARTS)
    return tuple(base + (1 if part < extra else 0) for part in range(_PARTS))


def tier_for_rank(rank: int, active_count: int) -> Tier:
    """The classified tier of a (competition) rank among `active_count` active players."""
    if not 1 <= rank <= active_count:
        raise ValueError(f"rank {rank} outside 1..{active_count}")
    last_ranks = list(accumulate(part_sizes(active_count)))
    return CLASSIFIED_TIERS[bisect.bisect_left(last_ranks, rank)]


@dataclass(frozen=True, slots=True)
class TierCutoffs:
    """The whole classification of one day in five numbers: the lowest rating (micro-points) still in
    each classified tier, best tier first (empty when nobody is active). With them a single player's
    tier is O(1), so a service can store a day's cutoffs and answer any player's tier for that day.
    They describe the awards known when computed: recompute them when an award dated on or before
    their day arrives later."""

    day: date
    active_count: int
    minimum_ratings: tuple[int, ...]

    @classmethod
    def from_ratings(cls, day: date, ratings: Iterable[int]) -> "TierCutoffs":
        """From the ratings on `day` of every active player (any order)."""
        best_first = sorted(ratings, reverse=True)
        last_ranks = accumulate(part_sizes(len(best_first)))
        # A rating reaches a tier iff fewer players than the tier's last rank rate strictly higher,
        # i.e. iff it is at least the rating found at that last rank.
        minimums = tuple(best_first[last - 1] for last in last_ranks) if best_first else ()
        return cls(day, len(best_first), minimums)

    def tier_for(self, summary: RatingSummary) -> Tier:
        """The player's tier on `self.day`; the summary must be anchored on or before that day."""
        rating = active_rating(summary, self.day)
        return _unclassified(summary) if rating is None else self.classify(rating)

    def classify(self, rating: int) -> Tier:
        """The classified tier of an active player's rating on `self.day`."""
        for tier, minimum in zip(CLASSIFIED_TIERS, self.minimum_ratings, strict=False):
            if rating >= minimum:
                return tier
        raise ValueError(f"rating {rating} is below every active player's on {self.day}")


@dataclass(frozen=True)
class TierTable:
    """Every known player's tier on one day. Players not in the table never played: ESORDIENTE."""

    cutoffs: TierCutoffs
    tiers: Mapping[str, Tier]

    @property
    def day(self) -> date:
        return self.cutoffs.day

    def tier_of(self, player_id: str) -> Tier:
        return self.tiers.get(player_id, Tier.ESORDIENTE)


def compute_tiers(summaries: Iterable[RatingSummary], day: date) -> TierTable:
    """All tiers on `day` from the per-player summaries, each anchored on or before `day`."""
    known = list(summaries)
    ratings = [active_rating(s, day) for s in known]
    cutoffs = TierCutoffs.from_ratings(day, (r for r in ratings if r is not None))
    tiers = {
        s.player_id: _unclassified(s) if r is None else cutoffs.classify(r) for s, r in zip(known, ratings, strict=True)
    }
    if len(tiers) != len(known):
        raise ValueError("one summary per player")
    return TierTable(cutoffs, MappingProxyType(tiers))


@dataclass(frozen=True, slots=True)
class TierChange:
    player_id: str
    before: Tier
    after: Tier


def tier_changes(before: TierTable, after: TierTable) -> tuple[TierChange, ...]:
    """The players whose tier differs between two tables (for tier-changed events), by player id."""
    players = before.tiers.keys() | after.tiers.keys()
    changed = sorted(p for p in players if before.tier_of(p) != after.tier_of(p))
    return tuple(TierChange(p, before.tier_of(p), after.tier_of(p)) for p in changed)
