"""Player protection the gateway enforces (issue 17, docs/player-protection.md): self-exclusion and session time.
Pure rules, no I/O. (Deposit limits are the wallet's: it owns deposits.)

- Self-exclusion: 30, 60 or 90 days, or permanent, in force from the moment it is asked for. It cannot be
  lifted or shortened before its end: while one is in force, only a longer one (or a permanent one) replaces it.
  While in force the player may not play (register, bet, act at a table); they may still sign in to see their
  account and withdraw, as Italian licensed sites allow.
- Session time: the session starts at the log-in. A reality check every N minutes the player chose shows the
  time played and the net result; an optional limit ends play for the session once reached, until the next
  log-in starts a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class ExclusionTerm(StrEnum):
    DAYS_30 = "30_days"
    DAYS_60 = "60_days"
    DAYS_90 = "90_days"
    PERMANENT = "permanent"

    @property
    def length(self) -> timedelta | None:
        return _LENGTHS[self]


_LENGTHS = {
    ExclusionTerm.DAYS_30: timedelta(days=30),
    ExclusionTerm.DAYS_60: timedelta(days=60),
    ExclusionTerm.DAYS_90: timedelta(days=90),
    ExclusionTerm.PERMANENT: None,
}


@dataclass(frozen=True, slots=True)
class SelfExclusion:
    term: ExclusionTerm
    starts_at: datetime
    ends_at: datetime | None  # None: permanent

    @classmethod
    def starting(cls, term: ExclusionTerm, now: datetime) -> SelfExclusion:
        length = term.length
        return cls(term, now, None if length is None else now + length)

    def in_force_at(self, at: datetime) -> bool:
        return self.starts_at <= at and (self.ends_at is None or at < self.ends_at)

    def outlasts(self, other: SelfExclusion) -> bool:
        """Ends no earlier than `other` (a permanent one outlasts everything)."""
        if self.ends_at is None:
            return True
        return other.ends_at is not None and self.ends_at >= other.ends_at


def may_replace(current: SelfExclusion | None, new: SelfExclusion, now: datetime) -> bool:
    """Not reversible before its end: while one is in force, only one lasting at least as long replaces it."""
    return current is None or not current.in_force_at(now) or new.outlasts(current)


REALITY_CHECK_MINUTES = (5, 240)  # the shortest and longest interval a player may choose
SESSION_LIMIT_MINUTES = (15, 1440)


@dataclass(frozen=True, slots=True)
class SessionRules:
    """What the player chose: None means no reality check, no session limit."""

    reality_check_minutes: int | None = None
    session_limit_minutes: int | None = None


@dataclass(frozen=True, slots=True)
class SessionClock:
    """The current session at one instant, as a reality check shows it."""

    started_at: datetime
    now: datetime
    rules: SessionRules

    @property
    def elapsed(self) -> timedelta:
        return max(timedelta(0), self.now - self.started_at)

    @property
    def ends_at(self) -> datetime | None:
        minutes = self.rules.session_limit_minutes
        return None if minutes is None else self.started_at + timedelta(minutes=minutes)

    @property
    def limit_reached(self) -> bool:
        return self.ends_at is not None and self.now >= self.ends_at

    @property
    def next_reality_check_at(self) -> datetime | None:
        """The next multiple of the interval after the start that is still ahead (None: no reality check)."""
        minutes = self.rules.reality_check_minutes
        if minutes is None:
            return None
        every = timedelta(minutes=minutes)
        return self.started_at + every * (self.elapsed // every + 1)


@dataclass(frozen=True, slots=True)
class PlayRefusal:
    code: str
    message: str
    until: datetime | None


def play_refusal(exclusion: SelfExclusion | None, session: SessionClock | None, now: datetime) -> PlayRefusal | None:
    """Why the player may not play at `now`, or None. Self-exclusion first: it outlasts any session. `session`
    None: no session of the player's own (a partner registering them), so no session limit applies."""
    if exclusion is not None and exclusion.in_force_at(now):
        return PlayRefusal(
            "player_self_excluded",
            "You excluded yourself from play until the date shown. / Ti sei autoescluso dal gioco fino alla data "
            "indicata.",
            exclusion.ends_at,
        )
    if session is not None and session.limit_reached:
        return PlayRefusal(
            "session_time_limit_reached",
            "Your session reached the time limit you set: log in again to start a new one. / La sessione ha "
            "raggiunto il limite di tempo che hai scelto: accedi di nuovo per iniziarne una nuova.",
            None,
        )
    return None
