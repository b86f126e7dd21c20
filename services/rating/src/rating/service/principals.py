"""Who calls a conduct endpoint, as the gateway tells us on internal calls (trusted with the internal token).

X-Principal-Role: player | operator | admin (partner systems are refused here)
X-Principal-Id: the player's or staff member's id
X-Concessionaire-Id: the concessionaire a player belongs to or an operator works for; none for an admin

Staff are operators of one concessionaire, who act on that concessionaire's players only, and network
administrators, who act on every player. A player may report others and appeal their own sanctions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from platform_kit.errors import Forbidden


class Role(StrEnum):
    PLAYER = "player"
    OPERATOR = "operator"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class Principal:
    role: Role
    subject_id: str
    concessionaire_id: str | None = None

    @property
    def is_staff(self) -> bool:
        return self.role is not Role.PLAYER

    def manages(self, concessionaire_id: str) -> bool:
        """May act, as staff, on the players of this concessionaire."""
        return self.role is Role.ADMIN or (self.role is Role.OPERATOR and self.concessionaire_id == concessionaire_id)

    def may_see(self, player_id: str, concessionaire_id: str) -> bool:
        """A player sees their own conduct record; staff see their players'."""
        return self.subject_id == player_id if self.role is Role.PLAYER else self.manages(concessionaire_id)

    def require_staff(self) -> None:
        if not self.is_staff:
            raise Forbidden("rating.staff_only", "Only staff (operators and administrators) may do this.")

    def require_manages(self, concessionaire_id: str) -> None:
        self.require_staff()
        if not self.manages(concessionaire_id):
            raise Forbidden("rating.not_your_player", "Operators act on their own concessionaire's players only.")
