"""The tournament director's events: what happened to tournaments, their players and their money."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from platform_kit.events.base import Event

TournamentKind = Literal["sit_and_go", "scheduled"]


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
    entry: Literal["buy_in", "ticket", "satellite", "freeroll"]
    registered: int = Field(description="Players registered after this one.")


class PlayerUnregistered(Event):
    TYPE = "tournament.player.unregistered"
    tournament_id: str
    player_id: str
    refunded_cents: int
    registered: int


class TournamentStarted(Event):
    TYPE = "tournament.tournament.started"
    tournament_id: str
    players: int
    tables: list[str]


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


class RankedPlayer(_Model):
    player_id: str
    position: int
    prize_cents: int
    disqualified: bool = False


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


class Refund(_Model):
    player_id: str
    cash_cents: int
    tickets: int = 0


class TournamentCancelled(Event):
    TYPE = "tournament.tournament.cancelled"
    tournament_id: str
    reason: str
    refunds: list[Refund]
