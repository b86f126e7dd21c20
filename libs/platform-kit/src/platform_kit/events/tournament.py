"""The tournament director's events: what happened to tournaments, their players and their money."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from platform_kit.events.base import Event


class TournamentKind(StrEnum):
    """The one definition of a tournament's kind: the director's definitions and its events both use it."""

    #: Fixed number of seats (2–120), starts when full (P-3.1).
    SIT_AND_GO = "sit_and_go"
    #: Starts at a set time with 10–3,000 registered players (P-3.2).
    SCHEDULED = "scheduled"


#: How a player enters a tournament: pays the buy-in, uses a ticket, takes a seat won in a satellite (P-3.4),
#: or takes a freeroll's free entry (P-9.1). The director's registrations take and answer these words, the
#: gateway relays them, and `tournament.player.registered` reports them.
RegistrationEntry = Literal["buy_in", "ticket", "satellite", "freeroll"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TournamentAnnounced(Event):
    TYPE = "tournament.tournament.announced"
    tournament_id: str
    name: str
    kind: TournamentKind
    concessionaire_id: str | None
    currency: str
    buy_in_prize_cents: int
    buy_in_fee_cents: int
    starts_at: str | None
    max_players: int


class RegistrationOpened(Event):
    TYPE = "tournament.registration.opened"
    tournament_id: str


class PlayerRegistered(Event):
    TYPE = "tournament.player.registered"
    tournament_id: str
    player_id: str
    entry: RegistrationEntry
    registered: int = Field(description="Players registered after this one.")


class PlayerUnregistered(Event):
    TYPE = "tournament.player.unregistered"
    tournament_id: str
    player_id: str
    refunded_cents: int
    registered: int
    reason: Literal["player", "sanction", "late_payment", "self_exclusion"] = Field(
        "player",
        description="`player`: they asked; `sanction`: a disqualification or ban removed them (P-12.5); "
        "`late_payment`: their buy-in was confirmed only after the tournament had started; `self_exclusion`: "
        "they excluded themself from play (issue 17).",
    )
    forfeited: bool = Field(False, description="The entry was kept, not refunded (a sanction's forfeit, P-12.5).")


class TournamentStarted(Event):
    TYPE = "tournament.tournament.started"
    tournament_id: str
    players: int
    tables: list[str]


class TournamentPaused(Event):
    """The director paused a running tournament for a technical problem: the blind clock stops and no new hand is
    dealt (hands in progress finish)."""

    TYPE = "tournament.tournament.paused"
    tournament_id: str
    reason: str


class TournamentResumed(Event):
    """Play goes on after a pause: the clock runs again from where it stopped and the tables deal."""

    TYPE = "tournament.tournament.resumed"
    tournament_id: str
    paused_seconds: int
    level_ends_at: str | None = Field(description="When the current level or break now ends; null in the last level.")


class LevelChanged(Event):
    TYPE = "tournament.level.changed"
    tournament_id: str
    level_no: int
    small_blind: int
    big_blind: int
    ante: int
    ends_at: str | None
    on_break: bool = False


class TableBroken(Event):
    TYPE = "tournament.table.broken"
    tournament_id: str
    table_id: str


class PlayerMoved(Event):
    TYPE = "tournament.player.moved"
    tournament_id: str
    player_id: str
    from_table_id: str
    to_table_id: str
    to_seat: int
    reason: Literal["table_broken", "balancing", "shootout_regroup", "final_table"]


class PlayerEliminated(Event):
    TYPE = "tournament.player.eliminated"
    tournament_id: str
    player_id: str
    position: int
    prize_cents: int
    hand_id: str | None
    #: Out in a satellite's last hand, yet placed to win a seat in its target (P-3.4); `prize_cents` is then 0.
    seat: bool = False


class RankedPlayer(_Model):
    player_id: str
    position: int
    prize_cents: int
    disqualified: bool = False
    #: Won a seat in the satellite's target (P-3.4); `prize_cents` is then 0.
    seat: bool = False


class TournamentFinished(Event):
    """Rating uses `prize_pool_from_entries_cents` (guarantee overlay excluded, P-11.1, P-11.8)."""

    TYPE = "tournament.tournament.finished"
    tournament_id: str
    kind: TournamentKind
    currency: str
    finished_at: str
    entrants: int
    prize_pool_cents: int
    prize_pool_from_entries_cents: int
    guarantee_overlay_cents: int
    ranking: list[RankedPlayer]


class RebuyOffered(Event):
    """P-4.2: the player busted during the rebuy period; their table waits for the answer until `expires_at`
    (then the offer counts as declined and the player is eliminated)."""

    TYPE = "tournament.rebuy.offered"
    tournament_id: str
    table_id: str
    player_id: str
    chips: int
    price_cents: int
    expires_at: str


class AddonOffered(Event):
    """P-4.3: an add-on break began and this player may buy one until it ends."""

    TYPE = "tournament.addon.offered"
    tournament_id: str
    player_id: str
    chips: int
    price_cents: int


class EntryPurchased(Event):
    """A rebuy or an add-on was paid and its chips credited (P-4.4); the prize pool grew."""

    TYPE = "tournament.entry.purchased"
    tournament_id: str
    player_id: str
    kind: Literal["rebuy", "addon"]
    chips: int
    price_cents: int
    prize_pool_cents: int


class PlayerDisqualified(Event):
    """P-12.5: a sanction disqualified a player from a running tournament; their chips leave play."""

    TYPE = "tournament.player.disqualified"
    tournament_id: str
    player_id: str
    sanction_id: str


class TableHeld(Event):
    """Shoot-out (P-6.4): the table is down to its winners and waits for the next phase."""

    TYPE = "tournament.table.held"
    tournament_id: str
    table_id: str


class HandForHandChanged(Event):
    """P-6.6: hand-for-hand play started (`on`) or stopped."""

    TYPE = "tournament.hand_for_hand.changed"
    tournament_id: str
    on: bool


class FinalTableStarted(Event):
    """P-6.5: the players left play at one table."""

    TYPE = "tournament.final_table.started"
    tournament_id: str
    table_id: str


class ShootoutPhaseStarted(Event):
    """P-6.4: the winners of the previous phase were regrouped onto fresh tables."""

    TYPE = "tournament.shootout_phase.started"
    tournament_id: str
    phase: int
    tables: list[str]


class JackpotQualified(Event):
    """P-8.6: a player met a jackpot programme's condition (a lost showdown in `hand_id`, or a win streak)."""

    TYPE = "tournament.jackpot.qualified"
    tournament_id: str
    programme_id: str
    player_id: str
    hand_id: str | None


class JackpotAwarded(Event):
    """P-8.6: a qualifier's award from the programme's fund, paid by the wallet from the concessionaire's
    jackpot fund."""

    TYPE = "tournament.jackpot.awarded"
    tournament_id: str
    programme_id: str
    player_id: str
    concessionaire_id: str
    currency: str
    amount_cents: int


class Payment(_Model):
    player_id: str
    cash_cents: int
    #: A bonus freeroll's prizes, paid as bonus money (P-9.3).
    bonus_cents: int = 0


class SettlementCompleted(Event):
    """Every money movement of a finished or cancelled tournament has been posted by the wallet: prizes (or
    refunds and shares), overlays, tax accruals. The moment a player's winnings are in their account."""

    TYPE = "tournament.settlement.completed"
    tournament_id: str
    outcome: Literal["finished", "cancelled"]
    currency: str
    payments: list[Payment] = Field(
        description="Cash (and a bonus freeroll's bonus) each player received, refunds included (prizes for a finish)."
    )
    guarantee_overlay_cents: int
    cancellation_overlay_cents: int
    tax_cents: int
    tickets_issued: int = Field(description="Fresh tickets given back for ticket entries (P-10.12).")


class Refund(_Model):
    player_id: str
    cash_cents: int
    tickets: int = 0


class TournamentCancelled(Event):
    TYPE = "tournament.tournament.cancelled"
    tournament_id: str
    reason: str
    refunds: list[Refund]
