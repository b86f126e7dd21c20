"""What a `TournamentRun` call returns: the kit's contracts themselves (`platform_kit.events`, pure pydantic data,
no I/O), in the order the service must carry them out and publish them — table commands for the table engine
(`platform_kit.events.table`), tournament events (`platform_kit.events.tournament`) — and one message of the
director's own.

The one that is not a contract is `OfferRebuy`: `tournament.rebuy.offered` says until when the offer stands, and
that is the service's setting, not the run's (the run has no timers: the service calls `decline_rebuy` when the
time is up). The service records the offer and publishes `offer.offered(expires_at)`.

`OpenTable` carries the contract's default timers: the tables' timers are the service's configuration too, and
the service sets them on the way out (`adapters.bus_messages.table_command`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from platform_kit.events.table import AddChips, CloseTable, OpenTable, SeatPlayer, StartHand, UnseatPlayer
from platform_kit.events.tournament import (
    AddonOffered,
    FinalTableStarted,
    HandForHandChanged,
    JackpotQualified,
    LevelChanged,
    PlayerEliminated,
    PlayerMoved,
    RebuyOffered,
    ShootoutPhaseStarted,
    TableBroken,
    TableHeld,
    TournamentCancelled,
    TournamentFinished,
    TournamentPaused,
    TournamentResumed,
    TournamentStarted,
)

from tournament_director.domain.ranking import PlayerId


@dataclass(frozen=True)
class OfferRebuy:
    """Internal (P-4.2): the player busted during the rebuy period and may rebuy; their table waits for `rebuy` or
    `decline_rebuy`. Published as `tournament.rebuy.offered` once the service knows when the offer lapses."""

    tournament_id: str
    table_id: str
    player_id: PlayerId
    chips: int
    price_cents: int

    def offered(self, expires_at: datetime) -> RebuyOffered:
        return RebuyOffered(
            tournament_id=self.tournament_id,
            table_id=self.table_id,
            player_id=self.player_id,
            chips=self.chips,
            price_cents=self.price_cents,
            expires_at=expires_at.isoformat(),
        )


TableCommand = OpenTable | SeatPlayer | UnseatPlayer | AddChips | StartHand | CloseTable
TournamentEvent = (
    TournamentPaused
    | TournamentResumed
    | TournamentStarted
    | LevelChanged
    | TableBroken
    | PlayerMoved
    | PlayerEliminated
    | TournamentFinished
    | TournamentCancelled
    | AddonOffered
    | TableHeld
    | HandForHandChanged
    | FinalTableStarted
    | ShootoutPhaseStarted
    | JackpotQualified
)
#: Everything a `TournamentRun` call returns, in the order the service must carry it out and publish it.
Message = TableCommand | TournamentEvent | OfferRebuy
