"""Events the gateway publishes: identities other services refer to."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from platform_kit.events.base import Event


class ConcessionaireCreated(Event):
    """A network administrator created a concessionaire (an operator licensed to sell the games)."""

    TYPE = "gateway.concessionaire.created"

    concessionaire_id: str
    code: str = Field(description="Short unique code, e.g. `demo`.")
    name: str
    created_at: datetime


class PlayerRegistered(Event):
    """A player signed up, or was registered by their concessionaire's operator or partner system."""

    TYPE = "gateway.player.registered"

    player_id: str
    nickname: str = Field(description="Unique across the network, case-insensitively; the public identity (P-11.5).")
    concessionaire_id: str = Field(description="The concessionaire the player belongs to.")
    date_of_birth: date = Field(description="For the 18+ rule of the totalizator (T-1.4).")
    registered_at: datetime


class PlayerSelfExcluded(Event):
    """A player excluded themself from play (issue 17, docs/player-protection.md): from `starts_at` they may not
    play until `ends_at` (null: permanently). The tournament director withdraws and refunds their registrations
    for tournaments not yet started."""

    TYPE = "gateway.player.self_excluded"

    player_id: str
    concessionaire_id: str
    term: Literal["30_days", "60_days", "90_days", "permanent"]
    starts_at: datetime
    ends_at: datetime | None = Field(description="Null: permanent.")
