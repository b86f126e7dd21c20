"""The blind clock (P-7): which level or break the tournament is in at a given (injected) time.

- Levels follow each other on the clock, from the tournament's start; a break after level k (P-7.2) sits
  between level k and level k + 1. The last level never ends.
- P-7.1 **Interpretation**: a hand in progress finishes at the old level. The clock only answers "what level
  does a hand starting now use" (`level_for_new_hand`); the service keeps the level a hand started with.
- During a break no new hand starts (`level_for_new_hand` returns `None`); hands already running finish.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament_director.domain.definition import BlindLevel, BlindStructure, Break


@dataclass(frozen=True)
class ClockReading:
    """Where the clock stands: in level `level_number` (from 1), or in the break that follows it."""

    level_number: int
    level: BlindLevel
    #: The break in progress (after `level_number`), if any.
    on_break: Break | None
    #: Time left in the current level or break; `None` in the last level, which never ends.
    remaining: timedelta | None
    #: The level that comes next, `None` in the last level.
    next_level: BlindLevel | None


class BlindClock:
    """The blind schedule of one tournament that started at `started_at` (P-7)."""

    def __init__(self, structure: BlindStructure, started_at: datetime) -> None:
        if not structure.levels:
            raise ValueError("a blind structure has at least one level")
        self._structure = structure
        self._started_at = started_at

    def reading_at(self, now: datetime) -> ClockReading:
        if now < self._started_at:
            raise ValueError("the tournament has not started yet")
        elapsed = now - self._started_at
        levels = self._structure.levels
        boundary = timedelta(0)
        for number, level in enumerate(levels, start=1):
            next_level = levels[number] if number < len(levels) else None
            if next_level is None:
                return ClockReading(number, level, on_break=None, remaining=None, next_level=None)
            boundary += timedelta(seconds=level.duration_seconds)
            if elapsed < boundary:
                return ClockReading(number, level, None, boundary - elapsed, next_level)
            if (pause := self._structure.break_after(number)) is not None:
                boundary += timedelta(seconds=pause.duration_seconds)
                if elapsed < boundary:
                    return ClockReading(number, level, pause, boundary - elapsed, next_level)
        raise AssertionError("unreachable: the last level never ends")

    def level_for_new_hand(self, now: datetime) -> BlindLevel | None:
        """The level of a hand starting at `now`, or `None` during a break (no hand starts then)."""
        reading = self.reading_at(now)
        return None if reading.on_break else reading.level

    def level_starts_at(self, level_number: int) -> datetime:
        """When level `level_number` (from 1) begins, breaks included."""
        if not 1 <= level_number <= len(self._structure.levels):
            raise ValueError(f"there is no level {level_number}")
        start = self._started_at
        for number, level in enumerate(self._structure.levels[: level_number - 1], start=1):
            start += timedelta(seconds=level.duration_seconds)
            if (pause := self._structure.break_after(number)) is not None:
                start += timedelta(seconds=pause.duration_seconds)
        return start
