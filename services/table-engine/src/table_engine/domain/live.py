"""The hand a table is playing, as its shard keeps it in memory between commands."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from platform_kit.events.table import Level

from table_engine.domain import Hand
from table_engine.domain.fair_deal import DeckSource
from table_engine.domain.records import RecordedAction


@dataclass
class Turn:
    """A decision the table waits for: after `deadline` the player's time bank runs, at `expires_at` the
    default action applies."""

    seat: int
    requested_at: datetime
    deadline: datetime
    expires_at: datetime

    def overtime_ms(self, now: datetime) -> int:
        """Milliseconds of time bank used when the player acts at `now`."""
        return max(0, (min(now, self.expires_at) - self.deadline) // timedelta(milliseconds=1))


@dataclass
class LiveHand:
    hand_id: str
    hand_no: int
    level: Level
    hand: Hand
    actions: list[RecordedAction]
    start_stacks: dict[int, int]
    """Seat -> chips at the start of the hand: what a void hand restores (P-10), and the results' start."""
    source: DeckSource | None = None
    """What the deck derives from: its seed stays secret until the hand has ended, only the commitment is
    public meanwhile. None for a hand dealt before provably fair deals."""
    set_aside: dict[int, int] = field(default_factory=dict)
    """Seat -> chips an all-in-protected player keeps out of play (P-13.2); theirs again when the hand ends."""
    extra_ms: dict[int, int] = field(default_factory=dict)
    """Seat -> extra time a disconnected player was granted for this hand (P-13.2, time-bank protection)."""
    turn: Turn | None = None
    # What the published events have said so far: the engine's events up to `published`, and the stacks
    # behind and the chips in the middle after them (for `stack_after` and `pot_after`).
    published: int = 0
    stacks: dict[int, int] = field(default_factory=dict)
    pot: int = 0

    def __post_init__(self) -> None:
        if not self.stacks:
            self.stacks = {seat: s.stack for seat, s in self.hand.config.seats.items()}

    @property
    def dealt_in(self) -> tuple[int, ...]:
        return self.hand.config.order

    def player_of(self, seat: int) -> str:
        return self.hand.config.seats[seat].player_id

    def chips_behind(self, seat: int) -> int:
        """What the seat holds outside the middle, chips set aside by all-in protection included."""
        return self.hand.stacks[seat] + self.set_aside.get(seat, 0)
