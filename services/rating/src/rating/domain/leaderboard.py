"""The public ranking of a day (P-11.3, P-11.5).

Active players (see `tiers.is_active`) ordered by rating on the day, best first; tied players share the
better rank (P-11.8) and are listed by player id so that pages are stable. Entries carry the player id
only: the public API must show the nickname in its place and nothing else about the player (P-11.5).
Built once (a sort of the active players) and then paged by slicing.
"""

import bisect
import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from .summary import RatingSummary
from .tiers import Tier, active_rating, tier_for_rank


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    player_id: str
    rating: int
    tier: Tier


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    day: date
    number: int
    size: int
    active_count: int
    entries: tuple[LeaderboardEntry, ...]


class Leaderboard:
    """One day's ranking; build with `Leaderboard.build`."""

    def __init__(self, day: date, active_count: int, order: list[tuple[int, str]]) -> None:
        # `order` holds (-rating, player_id) sorted ascending: best rating first, ties by player id.
        self.day = day
        self.active_count = active_count
        self._order = order

    @classmethod
    def build(cls, summaries: Iterable[RatingSummary], day: date, *, depth: int | None = None) -> "Leaderboard":
        """The ranking on `day`. With `depth`, only the best `depth` players are kept (a partial sort:
        cheaper for the first pages); ranks and tiers stay exact because everyone is still counted."""
        ratings = ((active_rating(s, day), s.player_id) for s in summaries)
        keys = [(-rating, player_id) for rating, player_id in ratings if rating is not None]
        if depth is None:
            keys.sort()
            return cls(day, len(keys), keys)
        return cls(day, len(keys), heapq.nsmallest(depth, keys))

    @property
    def depth(self) -> int:
        """How many of the best players this leaderboard holds (all of them unless built with depth)."""
        return len(self._order)

    def page(self, number: int, size: int = 50) -> LeaderboardPage:
        """Page `number` (from 1) of `size` entries; past the last player a page is empty."""
        if number < 1 or size < 1:
            raise ValueError("pages are numbered from 1 and hold at least one entry")
        start = (number - 1) * size
        stop = min(start + size, self.active_count)
        if stop > self.depth:
            raise ValueError(f"page {number} lies beyond the {self.depth} players this leaderboard holds")
        entries = tuple(self._entry(index) for index in range(start, stop))
        return LeaderboardPage(self.day, number, size, self.active_count, entries)

    def rank_for(self, rating: int) -> int:
        """The rank an active player with this rating holds: 1 + the players rated strictly higher."""
        better = bisect.bisect_left(self._order, (-rating,))
        if better == self.depth and self.depth < self.active_count:
            raise ValueError("rating below the part of the ranking this leaderboard holds")
        return better + 1

    def _entry(self, index: int) -> LeaderboardEntry:
        negated_rating, player_id = self._order[index]
        rank = self.rank_for(-negated_rating)
        return LeaderboardEntry(rank, player_id, -negated_rating, tier_for_rank(rank, self.active_count))
