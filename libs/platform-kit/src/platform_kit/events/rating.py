"""The rating service's events: tier changes and sanctions that other services act on."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from platform_kit.events.base import Event

Tier = Literal["GRUPPO_UNO", "GRUPPO_DUE", "GRUPPO_TRE", "LISTED", "CONDIZIONATA", "ESORDIENTE", "INATTIVO"]
SanctionKind = Literal[
    "written_warning",
    "temporary_chat_ban",
    "permanent_chat_ban",
    "ranking_penalty",
    "tournament_disqualification",
    "pending_tournaments_disqualification",
    "temporary_ban",
    "permanent_ban",
]
BanScope = Literal["room", "network", "room_and_network"]


class RatingUpdated(Event):
    TYPE = "rating.rating.updated"
    player_id: str
    tournament_id: str
    points_micro: int
    as_of_day: str


class TierChanged(Event):
    TYPE = "rating.tier.changed"
    player_id: str
    previous: Tier
    current: Tier
    as_of_day: str


class SanctionDecided(Event):
    """The gateway (bans), the director (disqualification, ranking penalty) and the table engine (chat bans) act
    on it (P-12.3, P-12.4, P-12.5)."""

    TYPE = "rating.sanction.decided"
    sanction_id: str
    player_id: str
    kind: SanctionKind
    tournament_id: str | None
    ban_scope: BanScope | None = None
    room_id: str | None = Field(None, description="The sanctioning concessionaire, for room bans.")
    starts_at: str
    ends_at: str | None
    ranking_penalty_positions: int = 0
    forfeit_entries: bool = False
    reason: str


class SanctionLifted(Event):
    TYPE = "rating.sanction.lifted"
    sanction_id: str
    player_id: str
    kind: SanctionKind
    reason: Literal["expired", "overturned_on_appeal", "revoked"]
