"""What a running tournament takes in (facts) and gives out (commands and events) — `TournamentRun`'s vocabulary.

Plain frozen dataclasses, so the pure domain imports no bus code. Each one whose name matches a bus contract maps
onto it by field name (a test checks it): the table commands onto `platform_kit.events.table` (`OpenTable`, `SeatPlayer`,
`UnseatPlayer`, `AddChips`, `StartHand`, `CloseTable`), the fact `HandCompleted` onto the table engine's
`table.hand.completed` event, and the tournament events onto `platform_kit.events.tournament` (`TournamentStarted`,
`LevelChanged`, `TableBroken`, `PlayerMoved`, `PlayerEliminated`, `TournamentFinished`, `TournamentCancelled`).
The differences are representational — tuples for lists, `datetime` for the ISO strings, enums for the string
literals, the shown hand's category as a `HandCategory` (`hand_category` parses the bus's name) — and fields the
run has no say in, which the service fills in or drops: `OpenTable`'s timers and disconnect policy (table
configuration), `TournamentFinished.currency`, and the completed hand's `tournament_id`, `board` and shown cards
(the director needs only stacks, pots and categories).

The rest have no bus contract yet and are for the service to act on or publish as it sees fit: `RebuyOffered`,
`AddonOffered`, `TableHeld`, `HandForHandChanged`, `FinalTableStarted`, `ShootoutPhaseStarted`,
`JackpotQualified`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tournament_director.domain.jackpots import HandCategory
from tournament_director.domain.kinds import BettingStructure, TournamentKind
from tournament_director.domain.ranking import PlayerId

# ---- shared shapes ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedPlayer:
    seat: int
    player_id: PlayerId
    stack: int


@dataclass(frozen=True)
class Level:
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False


# ---- the fact: a completed hand -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """A player dealt into the hand, with their stack at its start and its end."""

    seat: int
    player_id: PlayerId
    start_stack: int
    end_stack: int


@dataclass(frozen=True)
class PotResult:
    amount: int
    eligible_seats: tuple[int, ...]
    winner_seats: tuple[int, ...]
    #: Chips won by each winner, in the order of `winner_seats`.
    shares: tuple[int, ...]


@dataclass(frozen=True)
class ShownHand:
    seat: int
    player_id: PlayerId
    category: HandCategory


@dataclass(frozen=True)
class HandCompleted:
    """A hand the table engine completed (P-10: only completed hands count)."""

    table_id: str
    hand_id: str
    hand_no: int
    button_seat: int
    results: tuple[SeatResult, ...]
    pots: tuple[PotResult, ...] = ()
    shown: tuple[ShownHand, ...] = ()
    busted_player_ids: tuple[PlayerId, ...] = ()


_CATEGORY_NAMES = {category.name.lower(): category for category in HandCategory} | {"one_pair": HandCategory.PAIR}


def hand_category(name: str) -> HandCategory:
    """The category of a shown hand from its bus name (`"four_of_a_kind"`; `"one_pair"` or `"pair"`)."""
    try:
        return _CATEGORY_NAMES[name.lower().replace(" ", "_")]
    except KeyError:
        raise ValueError(f"not a hand category: {name!r}") from None


# ---- commands to the table engine ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenTable:
    table_id: str
    tournament_id: str
    max_seats: int
    betting_structure: BettingStructure
    seats: tuple[SeatedPlayer, ...]
    #: None: the engine draws the first button at random.
    button_seat: int | None = None


@dataclass(frozen=True)
class SeatPlayer:
    """Between hands: a moved player takes a seat (P-6.2, P-6.3); a busy table seats them for its next hand."""

    table_id: str
    player: SeatedPlayer


UnseatReason = Literal["moved", "busted", "disqualified", "left", "table_broken"]


@dataclass(frozen=True)
class UnseatPlayer:
    table_id: str
    player_id: PlayerId
    reason: UnseatReason


@dataclass(frozen=True)
class AddChips:
    """Rebuy or add-on chips, added between hands (P-4)."""

    table_id: str
    player_id: PlayerId
    amount: int
    reason: Literal["rebuy", "addon"]


@dataclass(frozen=True)
class StartHand:
    """Deal the next hand at this level (P-7.1: the level a hand starts with is the level it finishes at)."""

    table_id: str
    hand_no: int
    level: Level


@dataclass(frozen=True)
class CloseTable:
    table_id: str
    reason: str


# ---- tournament events -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentStarted:
    tournament_id: str
    players: int
    tables: tuple[str, ...]


@dataclass(frozen=True)
class LevelChanged:
    tournament_id: str
    level_no: int
    small_blind: int
    big_blind: int
    ante: int
    #: When this level (or break) ends; None in the last level, which never ends.
    ends_at: datetime | None
    on_break: bool = False


@dataclass(frozen=True)
class TableBroken:
    tournament_id: str
    table_id: str


MoveReason = Literal["table_broken", "balancing", "shootout_regroup", "final_table"]


@dataclass(frozen=True)
class PlayerMoved:
    tournament_id: str
    player_id: PlayerId
    from_table_id: str
    to_table_id: str
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True)
class PlayerEliminated:
    tournament_id: str
    player_id: PlayerId
    #: The best position of the player's tie group (P-2.4); provisional until the end (P-12.3, P-12.5).
    position: int
    #: The position's prize on the prize pool as it stands now (it can still grow with rebuys and add-ons).
    prize_cents: int
    hand_id: str | None
    #: Out in a satellite's last hand, yet placed to win a seat in its target (P-3.4); `prize_cents` is then 0.
    seat: bool = False


@dataclass(frozen=True)
class RankedPlayer:
    player_id: PlayerId
    position: int
    prize_cents: int
    disqualified: bool = False
    #: Won a seat in the satellite's target (P-3.4); `prize_cents` is then 0.
    seat: bool = False


@dataclass(frozen=True)
class TournamentFinished:
    """Rating uses `prize_pool_from_entries_cents` (guarantee overlay excluded, P-11.1, P-11.8)."""

    tournament_id: str
    kind: TournamentKind
    finished_at: datetime
    entrants: int
    prize_pool_cents: int
    prize_pool_from_entries_cents: int
    guarantee_overlay_cents: int
    ranking: tuple[RankedPlayer, ...]


@dataclass(frozen=True)
class Refund:
    player_id: PlayerId
    cash_cents: int
    tickets: int = 0


@dataclass(frozen=True)
class TournamentCancelled:
    tournament_id: str
    reason: str
    refunds: tuple[Refund, ...]


# ---- run events without a bus contract yet ---------------------------------------------------------------------


@dataclass(frozen=True)
class RebuyOffered:
    """P-4.2: the player busted during the rebuy period; their table waits for `rebuy` or `decline_rebuy`."""

    tournament_id: str
    table_id: str
    player_id: PlayerId
    chips: int
    price_cents: int


@dataclass(frozen=True)
class AddonOffered:
    """P-4.3: an add-on moment (a break) began and this player may buy one."""

    tournament_id: str
    player_id: PlayerId
    chips: int
    price_cents: int


@dataclass(frozen=True)
class TableHeld:
    """Shoot-out (P-6.4): the table is down to its winners and deals no more until the next phase."""

    tournament_id: str
    table_id: str


@dataclass(frozen=True)
class HandForHandChanged:
    """P-6.6: hand-for-hand play started (`on`) or stopped."""

    tournament_id: str
    on: bool


@dataclass(frozen=True)
class FinalTableStarted:
    """P-6.5: the players left play at one table."""

    tournament_id: str
    table_id: str


@dataclass(frozen=True)
class ShootoutPhaseStarted:
    """P-6.4: the winners of the previous phase were regrouped onto these tables."""

    tournament_id: str
    phase: int
    tables: tuple[str, ...]


@dataclass(frozen=True)
class JackpotQualified:
    """P-8.6: a player met a jackpot programme's lost-showdown condition in this hand."""

    tournament_id: str
    programme_id: str
    player_id: PlayerId
    hand_id: str


@dataclass(frozen=True)
class TournamentPaused:
    """The director paused the tournament for a technical problem: the clock stops, no new hand is dealt (hands
    in progress finish)."""

    tournament_id: str
    reason: str


@dataclass(frozen=True)
class TournamentResumed:
    """Play goes on: the clock runs again from where it stopped, and the tables deal."""

    tournament_id: str
    paused_seconds: int
    level_ends_at: datetime | None


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
    | RebuyOffered
    | AddonOffered
    | TableHeld
    | HandForHandChanged
    | FinalTableStarted
    | ShootoutPhaseStarted
    | JackpotQualified
)
#: Everything a `TournamentRun` call returns, in the order the service must carry it out and publish it.
Message = TableCommand | TournamentEvent
