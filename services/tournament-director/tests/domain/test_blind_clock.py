"""The blind clock (P-7.1, P-7.2)."""

from datetime import UTC, datetime, timedelta

import pytest
from tournament_director.domain.blind_clock import BlindClock
from tournament_director.domain.definition import BlindLevel, BlindStructure, Break

START = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LEVELS = (
    BlindLevel(small_blind=5, big_blind=10, duration_seconds=600),
    BlindLevel(small_blind=10, big_blind=20, duration_seconds=600),
    BlindLevel(small_blind=20, big_blind=40, ante=5, duration_seconds=600),
    BlindLevel(small_blind=40, big_blind=80, ante=10, duration_seconds=600),
)
CLOCK = BlindClock(BlindStructure(levels=LEVELS, breaks=(Break(after_level=2, duration_seconds=300),)), START)


def _at(minutes: float) -> datetime:
    return START + timedelta(seconds=round(minutes * 60))


def test_p7_1_levels_change_on_the_clock() -> None:
    assert CLOCK.reading_at(_at(0)).level == LEVELS[0]
    reading = CLOCK.reading_at(_at(9.5))
    assert (reading.level_number, reading.remaining, reading.next_level) == (1, timedelta(seconds=30), LEVELS[1])
    assert CLOCK.reading_at(_at(10)).level_number == 2


def test_p7_2_break_between_levels_then_the_next_level() -> None:
    on_break = CLOCK.reading_at(_at(21))
    assert on_break.on_break == Break(after_level=2, duration_seconds=300)
    assert (on_break.level_number, on_break.remaining) == (2, timedelta(minutes=4))
    assert CLOCK.reading_at(_at(25)).level_number == 3
    assert CLOCK.level_starts_at(3) == _at(25)
    assert CLOCK.level_starts_at(4) == _at(35)


def test_p7_1_last_level_never_ends() -> None:
    reading = CLOCK.reading_at(_at(60 * 24))
    assert (reading.level, reading.remaining, reading.next_level) == (LEVELS[3], None, None)


def test_p7_1_a_new_hand_uses_the_level_at_its_start_and_none_starts_in_a_break() -> None:
    # A hand starting at 9:59 plays at 5/10 even if it ends in level 2 (the service keeps the start level).
    assert CLOCK.level_for_new_hand(_at(9.99)) == LEVELS[0]
    assert CLOCK.level_for_new_hand(_at(22)) is None
    assert CLOCK.level_for_new_hand(_at(25)) == LEVELS[2]


def test_clock_refuses_times_before_the_start_and_unknown_levels() -> None:
    with pytest.raises(ValueError):
        CLOCK.reading_at(START - timedelta(seconds=1))
    with pytest.raises(ValueError):
        CLOCK.level_starts_at(5)
