"""The state of a table between two commands, as loaded from and saved to the database."""

from __future__ import annotations

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
    """Rebuy or add-on chips that arrived during a hand the player is in: added when it ends."""
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

    def seat_of(self, player_id: str) -> Seat | None:
        return next((seat for seat in self.seats.values() if seat.player_id == player_id), None)

    @property
    def protection_scope(self) -> str:
        """Where a player's disconnection protections are counted (P-13.3): the tournament, else the table."""
        return f"tournament:{self.tournament_id}" if self.tournament_id else f"table:{self.table_id}"
