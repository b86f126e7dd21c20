"""Who may audit a hand, that is see its recorded deck and every hole card (P-1.3): the network's administrators
any hand, an operator only the hands of its own concessionaire's tournaments. The table engine knows a hand's
table and tournament, the tournament director the tournament's organising concessionaire. Another
concessionaire's hand answers 404 `hand_not_found`, exactly like a missing one (as another concessionaire's
player does), before any card is asked for. A table outside any tournament belongs to no concessionaire: only
administrators audit it.

When a hand may be audited is the table engine's decision: 409 `hand_in_progress` until it has ended, since
until then its cards are its players' alone, staff included (P-1.4).
"""

from __future__ import annotations

from urllib.parse import quote

from platform_kit.errors import NotFound

from gateway.adapters.organisers import tournament_organiser
from gateway.adapters.service_client import DownstreamProblem, ServiceClient
from gateway.domain.roles import Principal, Role


class HandAudits:
    def __init__(self, table_engine: ServiceClient, tournament_director: ServiceClient) -> None:
        self._engine = table_engine
        self._director = tournament_director

    async def require_auditor(self, principal: Principal, hand_id: str) -> None:
        """Raises 404 `hand_not_found` unless `principal` (staff) may audit the hand."""
        if principal.role is Role.ADMIN:
            return
        organiser = await self._organiser(hand_id)
        if organiser is None or not principal.manages(organiser):
            raise NotFound("hand_not_found", "No such hand.")

    async def _organiser(self, hand_id: str) -> str | None:
        """The concessionaire whose tournament the hand was dealt in; None when none is known. A missing hand
        is the engine's 404, relayed as it is."""
        owner = (await self._engine.request("GET", f"/internal/v1/hands/{quote(hand_id, safe='')}")).json()
        tournament_id = owner.get("tournament_id")
        if not isinstance(tournament_id, str):
            return None
        try:
            return await tournament_organiser(self._director, tournament_id)
        except DownstreamProblem as problem:
            if problem.status == 404:
                return None
            raise
