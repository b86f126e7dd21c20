"""Who is calling: the principal the gateway authenticated, passed in `X-Principal-Role`, `X-Principal-Id` and
`X-Concessionaire-Id` (docs/api/tournament-director.md), and what each role may do here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from platform_kit.errors import Forbidden, NotFound
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import tournaments
from tournament_director.adapters.tournaments import TournamentRecord


class Role(StrEnum):
    PLAYER = "player"
    PARTNER = "partner"
    OPERATOR = "operator"
    ADMIN = "admin"


@dataclass(frozen=True)
class Principal:
    role: Role
    subject_id: str
    concessionaire_id: str | None

    @property
    def key_scope(self) -> str:
        """Whose Idempotency-Keys these are: one caller's key never names, nor answers, another caller's request."""
        return f"{self.role.value}:{self.concessionaire_id or ''}:{self.subject_id}"

    def require_staff(self) -> None:
        if self.role not in (Role.OPERATOR, Role.ADMIN):
            raise Forbidden("forbidden", "Only operators and administrators may do this.")

    def require_player_scope(self, player_id: str, concessionaire_id: str | None) -> None:
        """Players act for themselves; partners and operators for their own concessionaire's players;
        administrators for anyone."""
        if self.role is Role.ADMIN:
            return
        if self.role is Role.PLAYER and self.subject_id == player_id:
            return
        if self.role in (Role.PARTNER, Role.OPERATOR) and concessionaire_id == self.concessionaire_id:
            return
        raise Forbidden("forbidden", "You may not act for this player.")

    def require_manager_of(self, concessionaire_id: str | None) -> None:
        """Administrators manage every tournament; an operator those of their own concessionaire."""
        self.require_staff()
        if self.role is Role.OPERATOR and concessionaire_id != self.concessionaire_id:
            raise Forbidden("forbidden", "This tournament belongs to another concessionaire.")


async def managed_tournament(session: AsyncSession, tournament_id: str, principal: Principal) -> TournamentRecord:
    """The tournament (row locked) that `principal` manages: 404 when there is none, 403 when it is not theirs."""
    tournament = await tournaments.get(session, tournament_id, lock=True)
    if tournament is None:
        raise NotFound("tournament_not_found", f"No tournament {tournament_id}.")
    principal.require_manager_of(tournament.concessionaire_id)
    return tournament
