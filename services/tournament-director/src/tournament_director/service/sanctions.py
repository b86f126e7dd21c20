"""Sanctions from the rating service (P-12.3–P-12.5), applied when `rating.sanction.decided` arrives
(`ApplySanction`, in the unit of work of the transaction that records the message in the inbox).

- `tournament_disqualification`: the player is disqualified from that tournament — in play, their chips leave
  and they rank below everyone not disqualified; registered, their registration is cancelled.
- `ranking_penalty`: they will rank that many places lower in that tournament.
- `pending_tournaments_disqualification` and bans: every tournament the player is registered for or playing,
  not finished (a room ban only where they entered through that room).
A cancelled registration is refunded unless the sanction makes the entry forfeit. Refunds are money steps for the
worker.
"""

from __future__ import annotations

import logging
from datetime import datetime

from platform_kit.events import rating as rating_bus
from platform_kit.events import tournament as events
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import tournaments
from tournament_director.adapters.money_steps import StepKind
from tournament_director.adapters.tournaments import Registration, RegistrationStatus, Status
from tournament_director.domain.run import RunError, TournamentRun
from tournament_director.domain.run_messages import Message
from tournament_director.service import registration as registrations
from tournament_director.service.commands import ApplySanction
from tournament_director.service.context import Director
from tournament_director.service.runs import act_on_run

log = logging.getLogger(__name__)

EVERY_PENDING_TOURNAMENT = frozenset({"pending_tournaments_disqualification", "temporary_ban", "permanent_ban"})
ROOM_ONLY = "room"


async def apply(director: Director, uow: UnitOfWork, command: ApplySanction) -> None:
    await Sanctions(director).apply(uow.session, command.sanction)


class Sanctions:
    def __init__(self, director: Director) -> None:
        self.director = director

    async def apply(self, session: AsyncSession, sanction: rating_bus.SanctionDecided) -> None:
        if sanction.kind == "ranking_penalty" and sanction.tournament_id is not None:
            await self._penalize(session, sanction.tournament_id, sanction)
        elif sanction.kind == "tournament_disqualification" and sanction.tournament_id is not None:
            registration = await tournaments.registration(session, sanction.tournament_id, sanction.player_id)
            if registration is not None:
                await self._remove(session, registration, sanction)
        elif sanction.kind in EVERY_PENDING_TOURNAMENT:
            for registration in await tournaments.registrations_of_player(session, sanction.player_id):
                if sanction.ban_scope == ROOM_ONLY and registration.concessionaire_id != sanction.room_id:
                    continue
                await self._remove(session, registration, sanction)

    async def _remove(
        self, session: AsyncSession, registration: Registration, sanction: rating_bus.SanctionDecided
    ) -> None:
        tournament = await tournaments.get(session, registration.tournament_id, lock=True)
        assert tournament is not None
        if tournament.status is Status.RUNNING:
            await self._disqualify(session, registration.tournament_id, sanction)
        elif tournament.status in (Status.ANNOUNCED, Status.REGISTERING):
            if registration.status is not RegistrationStatus.REGISTERED:
                # Not holding a paid seat. (A payment still under way when the sanction arrives lands as a
                # registration: a narrow race this service does not close; the rating refuses their next one.)
                return
            if sanction.forfeit_entries:
                await registrations.forfeit(self.director, session, tournament, registration)
            else:
                await registrations.give_back(
                    self.director, session, tournament, registration, kind=StepKind.SANCTION_REFUND
                )

    async def _disqualify(
        self, session: AsyncSession, tournament_id: str, sanction: rating_bus.SanctionDecided
    ) -> None:
        player = sanction.player_id
        try:
            done = await act_on_run(self.director, session, tournament_id, lambda run, now: run.disqualify(player, now))
        except RunError as error:
            log.info("no disqualification to apply", extra={"tournament_id": tournament_id, "reason": str(error)})
            return
        if done:
            disqualified = events.PlayerDisqualified(
                tournament_id=tournament_id, player_id=player, sanction_id=sanction.sanction_id
            )
            await self.director.runtime.outbox.add(session, disqualified)

    async def _penalize(self, session: AsyncSession, tournament_id: str, sanction: rating_bus.SanctionDecided) -> None:
        def penalize(run: TournamentRun, _: datetime) -> tuple[Message, ...]:
            run.penalize(sanction.player_id, sanction.ranking_penalty_positions)
            return ()

        try:
            await act_on_run(self.director, session, tournament_id, penalize)
        except RunError as error:
            log.info("no ranking penalty to apply", extra={"tournament_id": tournament_id, "reason": str(error)})
