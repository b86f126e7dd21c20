"""The rating service's events: rating updates, tier changes and sanctions that other services act on.

Instants are ISO 8601 in UTC; days are ISO dates of the network's reference time zone (Europe/Rome).
"""

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
    """A player earned points in a finished tournament (P-11.1); published once per player and tournament."""

    TYPE = "rating.rating.updated"
    player_id: str
    tournament_id: str
    points_micro: int = Field(description="The points earned, in micro-points (1 point = 1,000,000).")
    as_of_day: str = Field(description="The day the points count from: the tournament's finish date (P-11.2).")


class TierChanged(Event):
    """A player's tier in force changed when the daily tier job closed `as_of_day` (P-11.3, P-11.4)."""

    TYPE = "rating.tier.changed"
    player_id: str
    previous: Tier
    current: Tier
    as_of_day: str


class SanctionDecided(Event):
    """The gateway (bans), the director (disqualification, ranking penalty) and the table engine (chat bans) act
    on it (P-12.3, P-12.4, P-12.5).

    A `tournament_disqualification` or `ranking_penalty` acts on `tournament_id` only. A
    `pending_tournaments_disqualification` and the bans also remove the player from the tournaments they were
    registered for at `starts_at` and that had not finished by then, refunded unless `forfeit_entries`.
    """

    TYPE = "rating.sanction.decided"
    sanction_id: str
    player_id: str
    kind: SanctionKind
    tournament_id: str | None = Field(
        description="The current tournament of a decision taken during it; else the tournament of the offence, if any."
    )
    ban_scope: BanScope | None = Field(
        None, description="Where a ban blocks access (bans only): `room_and_network` for a permanent ban."
    )
    room_id: str | None = Field(None, description="The sanctioning concessionaire, for room bans.")
    starts_at: str = Field(description="When it was decided and took effect.")
    ends_at: str | None = Field(description="The end of a temporary chat ban or ban; None otherwise.")
    ranking_penalty_positions: int = 0
    forfeit_entries: bool = False
    reason: str


class SanctionLifted(Event):
    """A sanction stopped: a temporary one reached its end, or any one was overturned on appeal."""

    TYPE = "rating.sanction.lifted"
    sanction_id: str
    player_id: str
    kind: SanctionKind
    reason: Literal["expired", "overturned_on_appeal", "revoked"] = Field(
        description="`revoked` is reserved: the rating service does not publish it yet."
    )
