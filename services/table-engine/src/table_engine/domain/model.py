"""The state of a table between two commands, as loaded from and saved to the database."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from platform_kit.events.table import DisconnectPolicy, Level

from table_engine.domain import BettingStructure, Positions

TableStatus = Literal["open", "paused", "closed"]
SitOutReason = Literal["requested", "timeout", "disconnected"]


@dataclass
class Seat:
    seat: int
    player_id: str
    stack: int
    time_bank_ms: int
    sitting_out: bool = False
    sit_out_reason: SitOutReason | None = None
    connected: bool = True
    pending_chips: int = 0
    """Rebuy or add-on chips that arrived during a hand the player is in, or while the table waits to deal the
    hand the director asked for (which the director counts as started): added when that hand ends."""
    leaving: str | None = None
    """The reason of an unseat that arrived during a hand the player is in: applied when it ends."""

    def sit_out(self, reason: SitOutReason) -> bool:
        """Mark the player sitting out; False when they already were."""
        if self.sitting_out:
            return False
        self.sitting_out, self.sit_out_reason = True, reason
        return True

    def sit_in(self) -> bool:
        if not self.sitting_out:
            return False
        self.sitting_out, self.sit_out_reason = False, None
        return True


def nobody_acting(status: TableStatus, sitting_out: Iterable[bool]) -> bool:
    """An open table where every seated player sits out (an empty table is not one): it plays on by itself at
    the pace of `hand_pause_seconds`, blinds and antes posted, until the rising blinds bust someone. Staff see
    it in the table's state and in the shard's gauge."""
    flags = list(sitting_out)
    return status != "closed" and bool(flags) and all(flags)


@dataclass(frozen=True)
class NextHand:
    """A StartHand the table took while the pause after its last hand ran: the timer deals it at `due_at`."""

    hand_no: int
    level: Level
    due_at: datetime


@dataclass
class Table:
    table_id: str
    tournament_id: str | None
    shard: int
    max_seats: int
    structure: BettingStructure
    action_seconds: int
    time_bank_seconds: int
    policy: DisconnectPolicy
    status: TableStatus
    first_button: int | None
    positions: Positions | None
    """The positions of the last completed hand: the next hand's follow from them (dead-button rule)."""
    level: Level | None
    hand_no: int
    current_hand_id: str | None
    opened_at: datetime
    seats: dict[int, Seat] = field(default_factory=dict)
    hand_ended_at: datetime | None = None
    """When the last hand ended (completed or voided): the next one is dealt no sooner than the pause after it."""
    next_hand: NextHand | None = None
    """The hand the director asked for, waiting for the pause to end; at most one, and never with a hand in play."""
    last_seed: str | None = None
    """The seed (hex) of the table's last ended hand, completed or voided, so already revealed: the public
    contribution to every next hand's deck (fair_deal.py)."""
    next_seed: str | None = None
    """The secret seed (hex) of the table's next hand, drawn and committed to (its SHA-256 published) before
    any contribution to that hand is accepted; saved, so a restart deals with the seed it committed to. None
    only for a table opened before players' contributions: its next deal draws one on the spot."""
    next_contributions: dict[str, str] = field(default_factory=dict)
    """Player id -> the value that player contributed to the next hand's deck (the latest one sent)."""

    @property
    def nobody_acting(self) -> bool:
        return nobody_acting(self.status, (seat.sitting_out for seat in self.seats.values()))

    def seat_of(self, player_id: str) -> Seat | None:
        return next((seat for seat in self.seats.values() if seat.player_id == player_id), None)

    @property
    def protection_scope(self) -> str:
        """Where a player's disconnection protections are counted (P-13.3): the tournament, else the table."""
        return f"tournament:{self.tournament_id}" if self.tournament_id else f"table:{self.table_id}"
