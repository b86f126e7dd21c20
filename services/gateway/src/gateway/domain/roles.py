"""Principals: who is calling, and what part of the network they may see.

A principal is one of
- a player (their own data only),
- a concessionaire operator (staff of one concessionaire: that concessionaire's players and keys),
- a network administrator (everything),
- a partner system (an API key of one concessionaire: that concessionaire's players, like its operator).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    PLAYER = "player"
    OPERATOR = "operator"
    ADMIN = "admin"
    PARTNER = "partner"


STAFF_ROLES = frozenset({Role.OPERATOR, Role.ADMIN})


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller.

    subject_id: the player id, the staff member id, or the API key id (partner).
    concessionaire_id: the concessionaire a player belongs to, or an operator/partner acts for; None for admins.
    """

    role: Role
    subject_id: str
    concessionaire_id: str | None = None
    nickname: str | None = None

    def __post_init__(self) -> None:
        needs_concessionaire = self.role in (Role.PLAYER, Role.OPERATOR, Role.PARTNER)
        if needs_concessionaire and not self.concessionaire_id:
            raise ValueError(f"a {self.role} principal belongs to a concessionaire")
        if self.role is Role.ADMIN and self.concessionaire_id is not None:
            raise ValueError("a network administrator belongs to no concessionaire")

    @property
    def key(self) -> str:
        """Stable identity of the caller, e.g. for rate limits: `player:<id>`, `partner:<key id>`."""
        return f"{self.role}:{self.subject_id}"

    def manages(self, concessionaire_id: str) -> bool:
        """May act on the concessionaire's players, keys and settings."""
        if self.role is Role.ADMIN:
            return True
        return self.role in (Role.OPERATOR, Role.PARTNER) and self.concessionaire_id == concessionaire_id

    def may_see_player(self, player_id: str, player_concessionaire_id: str) -> bool:
        """A player sees only themself; staff and partners see the players of what they manage."""
        if self.role is Role.PLAYER:
            return self.subject_id == player_id
        return self.manages(player_concessionaire_id)
