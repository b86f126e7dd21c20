"""The weekly draw the totalizator keeps open (issue 17: a newcomer finds a draw already scheduled).

One draw a week, named by the ISO week its bets close in (`weekly-2030-W23`), so that replicas and restarts
planning the same week plan the same draw. Its bets close on a Saturday at 13:00 UTC at least `LEAD` ahead (a
newcomer has days to bet, and the matches are days away); its 8 matches are a round of a 16-club league drawn by
the circle method from the week number, kicking off over the weekend after closing (T-2.1, T-5.1); it accepts
euros and US dollars at the minimum stake of T-2.4, every score up to 4:4 and the three catch-alls offered.
Pure rules: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from totalizator.domain.draw import MATCH_COUNT

LEAD = timedelta(days=2)
PERIOD = timedelta(days=7)
COMPETITION = "Serie A"
SATURDAY = 5  # datetime.weekday()
CLOSING = time(13, 0, tzinfo=UTC)
# After closing: Saturday afternoon and evening, then Sunday (hours after the closing day's midnight).
KICKOFFS = (
    timedelta(hours=14),
    timedelta(hours=16),
    timedelta(hours=18, minutes=45),
    timedelta(days=1, hours=10, minutes=30),
    timedelta(days=1, hours=13),
    timedelta(days=1, hours=13),
    timedelta(days=1, hours=16),
    timedelta(days=1, hours=18, minutes=45),
)
CLUBS = (
    "Atalanta",
    "Bologna",
    "Cagliari",
    "Como",
    "Fiorentina",
    "Genoa",
    "Inter",
    "Juventus",
    "Lazio",
    "Lecce",
    "Milan",
    "Napoli",
    "Parma",
    "Roma",
    "Torino",
    "Udinese",
)
# (currency, minimum stake per bet, US dollars per unit): T-2.4's USD 0.10 and its euro equivalent.
CURRENCIES = (("EUR", "0.10", "1.08"), ("USD", "0.10", "1"))


@dataclass(frozen=True, slots=True)
class Fixture:
    competition: str
    home: str
    away: str
    kickoff: datetime


@dataclass(frozen=True, slots=True)
class WeeklyDraw:
    draw_id: str
    close_at: datetime
    fixtures: tuple[Fixture, ...]
    currencies: tuple[tuple[str, str, str], ...] = CURRENCIES


def next_close(now: datetime) -> datetime:
    """The first Saturday 13:00 UTC at least LEAD after `now` (aware)."""
    earliest = (now + LEAD).astimezone(UTC)
    day = earliest.date() + timedelta(days=(SATURDAY - earliest.weekday()) % 7)
    close_at = datetime.combine(day, CLOSING)
    return close_at if close_at >= earliest else close_at + PERIOD


def draw_id(close_at: datetime) -> str:
    year, week, _ = close_at.isocalendar()
    return f"weekly-{year}-W{week:02d}"


def pairings(round_no: int) -> list[tuple[str, str]]:
    """Round `round_no` of a single round robin over CLUBS (circle method): each club plays once."""
    others = list(CLUBS[1:])
    shift = round_no % len(others)
    circle = [CLUBS[0], *others[shift:], *others[:shift]]
    pairs = [(circle[i], circle[-1 - i]) for i in range(len(circle) // 2)]
    # Alternate home and away from round to round, as a fixture list does.
    return pairs if round_no % 2 == 0 else [(away, home) for home, away in pairs]


def weekly_draw(close_at: datetime) -> WeeklyDraw:
    """The draw closing at `close_at` (one of next_close's Saturdays)."""
    midnight = datetime.combine(close_at.date(), time(0, tzinfo=UTC))
    week = close_at.isocalendar()[1]
    matches = tuple(
        Fixture(COMPETITION, home, away, midnight + offset)
        for (home, away), offset in zip(pairings(week), KICKOFFS, strict=True)
    )
    assert len(matches) == MATCH_COUNT
    return WeeklyDraw(draw_id(close_at), close_at, matches)
