"""Events the gateway publishes: identities other services refer to."""

from __future__ import annotations

from datetime import date, datetime

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
