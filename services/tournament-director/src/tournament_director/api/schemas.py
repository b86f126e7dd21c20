"""Request and answer bodies of the director's API (docs/api/tournament-director.md). Amounts are cents."""

from __future__ import annotations

from typing import Any, Literal

from platform_kit.events.tournament import RegistrationEntry
from pydantic import BaseModel, ConfigDict, Field

from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.jackpots import JackpotProgramme


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegistrationIn(_In):
    player_id: str = Field(min_length=1, max_length=64)
    concessionaire_id: str = Field(min_length=1, max_length=64, description="The player's concessionaire.")
    entry: RegistrationEntry = Field(
        "buy_in",
        description="`buy_in` pays the buy-in; `ticket` takes the ticket `ticket_code`; `satellite` takes a seat "
        "won in one of this tournament's satellites (P-3.4); `freeroll` takes a freeroll's free entry (P-9.1). "
        "A freeroll registers its players for free whatever the entry says.",
    )
    ticket_code: str | None = Field(None, max_length=32)


class PurchaseIn(_In):
    player_id: str = Field(min_length=1, max_length=64)


class CancellationIn(_In):
    reason: str = Field(min_length=3, max_length=500)


class PauseIn(_In):
    reason: str = Field(min_length=3, max_length=500, description="The technical problem, as players are told.")


class RegisteredOut(BaseModel):
    tournament_id: str
    player_id: str
    entry: str
    registered: int = Field(description="Players registered now.")


class UnregisteredOut(BaseModel):
    tournament_id: str
    player_id: str
    refunded_cents: int


class PurchasedOut(BaseModel):
    tournament_id: str
    player_id: str
    kind: Literal["rebuy", "addon"]
    chips: int
    price_cents: int


class RefundOut(BaseModel):
    player_id: str
    cash_cents: int = Field(description="Entries paid back and shares of the prize pool, in cash.")
    tickets: int = Field(description="Fresh tickets for ticket entries (P-10.12).")


class CancelledOut(BaseModel):
    tournament_id: str
    status: str
    reason: str | None
    rule: str | None = Field(description="The refund rule applied: P-10.1 … P-10.9, P-10 before the start, P-3.2.")
    refunds: list[RefundOut] | None = Field(
        description="Per player (None when answering a repeated cancellation); the wallet posts them shortly after."
    )


class CancellationPreviewOut(BaseModel):
    """What cancelling now would refund, nothing written (the console shows it before the operator confirms)."""

    tournament_id: str
    status: str = Field(description="The tournament's status now: registering, running…")
    rule: str = Field(description="The refund rule that would apply: P-10 before the start, P-10.1 … P-10.9.")
    currency: str
    refunds: list[RefundOut]
    total_cash_cents: int = Field(description="The refunds' cash, all players together.")


class LobbyItem(BaseModel):
    tournament_id: str
    name: str
    kind: str
    concessionaire_id: str | None = Field(
        None,
        description="The organizer: its staff manage the tournament (the console's scope). None: a network "
        "tournament without a sponsor, e.g. one the lobby's schedule opens (administrators manage it).",
    )
    status: str
    currency: str
    buy_in_prize_cents: int
    buy_in_fee_cents: int
    registered: int
    min_players: int
    max_players: int
    starts_at: str | None
    betting_structure: str
    table_mode: str
    guarantee_cents: int
    freeroll: bool
    recurring: bool = Field(False, description="A sit'n'go that re-opens as an identical one when it fills.")
    paused_at: str | None = Field(
        None, description="A running tournament the director paused for a technical problem: since when (issue 17)."
    )


class PayoutScheduleOut(BaseModel):
    entrants: int = Field(description="The field the schedule is for: the entrants once running, else the registered.")
    shares_bps: list[int] = Field(description="Each paid position's share of the prize pool, 1st first (P-8.4).")


class ClockOut(BaseModel):
    level: int
    on_break: bool
    small_blind: int
    big_blind: int
    ante: int
    ends_at: str | None = Field(description="When the level or break changes next; null in the last level or paused.")
    hand_for_hand: bool = Field(description="Hand-for-hand play (P-6.6).")
    paused_at: str | None = Field(
        description="Paused for a technical problem since then: no change due, no hand dealt."
    )


class SeatedOut(BaseModel):
    seat: int
    player_id: str
    chips: int = Field(description="After the player's latest completed hand.")


class TableOut(BaseModel):
    table_id: str
    players: list[SeatedOut]


class TournamentOut(LobbyItem):
    """A tournament's page: the lobby fields, the definition, the payout schedule for the current field (P-8.4)
    and, once running, the prize pool and prizes, the clock and the tables."""

    registration_opens_at: str | None
    started_at: str | None
    ended_at: str | None
    end_reason: str | None
    settled: bool = Field(description="Every money movement of its finish or cancellation was posted.")
    jackpots: list[JackpotProgramme]
    definition: TournamentDefinition
    payout_schedule: PayoutScheduleOut | None = Field(
        description="Null while no bracket of the tournament's own schedule covers the field."
    )
    prize_pool_cents: int | None = Field(description="Once running (P-8.2, P-8.3); it grows with rebuys and add-ons.")
    prizes_cents: list[int] | None = Field(description="Prize by position, 1st first, on the pool as it stands.")
    satellite_seats: int | None = Field(description="A satellite's seats in its target (P-3.4), once running.")
    players_left: int | None
    clock: ClockOut | None = Field(description="While running.")
    tables: list[TableOut] = Field(description="While running: each table's players by seat.")


class StandingOut(BaseModel):
    """A player still in (chips, table, seat) or ranked (position, prize: only those have them)."""

    player_id: str
    chips: int | None = Field(description="Null before the start; 0 once ranked.")
    table_id: str | None
    seat: int | None
    position: int | None = Field(None, description="Ranked players only (P-2).")
    prize_cents: int | None = Field(None, description="Ranked players only.")
    disqualified: bool | None = Field(None, description="Ranked players only (P-12.5).")


class StandingsOut(BaseModel):
    tournament_id: str
    status: str
    players: list[StandingOut] = Field(description="Players still in, by chips, then the ranked, by position.")


class TemplateOut(BaseModel):
    template: str
    description: str
    parameters: list[str] = Field(description="What the template takes besides the name.")
    definition: TournamentDefinition = Field(description="An example definition (priced 9+1).")


class PlayerTournamentOut(BaseModel):
    """A tournament a player entered, with where they sit while it runs and how they finished once ranked."""

    tournament_id: str
    name: str
    status: str
    registration: str = Field(description="paying, registered, refunding, unregistered or forfeited.")
    entry: RegistrationEntry
    concessionaire_id: str = Field(description="The concessionaire the player registered through.")
    table_id: str | None
    seat: int | None
    chips: int | None
    position: int | None = Field(None, description="Ranked players only (P-2).")
    prize_cents: int | None = Field(None, description="Ranked players only.")


class TicketOut(BaseModel):
    """A ticket that registers its holder for free (P-3.4, P-10.12)."""

    code: str
    currency: str
    prize_part_cents: int
    fee_cents: int
    tournament_kind: str
    issued_reason: str
    issued_at: str
    source_tournament_id: str
    target_tournament_id: str | None = Field(description="A satellite's seat: the only tournament it enters.")
    used_by_tournament_id: str | None


class LobbyEntryOut(BaseModel):
    """An entry of the lobby's schedule (issue 17)."""

    key: str
    concessionaire_id: str | None
    body: dict[str, Any] = Field(description="The creation body of the tournaments it opens.")
    every_minutes: int | None = Field(description="A scheduled tournament every so many minutes; null: a sit'n'go.")
    enabled: bool
    created_by: str | None = Field(description="Null for the settings' entries.")
    created_at: str | None
    disabled_at: str | None
    source: Literal["settings", "console"]
