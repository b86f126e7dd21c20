"""Pausing a running tournament for a technical problem (issue 17): the director stops the blind clock and the
dealing of new hands, then resumes. Staff of the tournament's concessionaire only; each
change is published (`tournament.tournament.paused` / `.resumed`) so players see it at once."""

from __future__ import annotations

from platform_kit.errors import Conflict
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.run import RunError
from tournament_director.service.commands import Pause, Resume
from tournament_director.service.context import Director
from tournament_director.service.principals import managed_tournament
from tournament_director.service.runs import RunCall, act_on_run


async def pause(director: Director, command: Pause) -> None:
    reason = command.reason
    await _change(director, command, lambda run, now: run.pause(now, reason), "tournament_already_paused")


async def resume(director: Director, command: Resume) -> None:
    await _change(director, command, lambda run, now: run.resume(now), "tournament_not_paused")


async def _change(director: Director, command: Pause | Resume, call: RunCall, refused: str) -> None:
    async with director.unit() as uow:
        tournament = await managed_tournament(uow.session, command.tournament_id, command.principal)
        await _change_run(director, uow.session, tournament, call, refused)


async def _change_run(
    director: Director, session: AsyncSession, tournament: TournamentRecord, call: RunCall, refused: str
) -> None:
    if tournament.status is not Status.RUNNING:
        raise Conflict(
            "tournament_not_running",
            f"The tournament is {tournament.status.value}: only a running one is paused or resumed.",
            tournament_status=tournament.status.value,
        )
    try:
        await act_on_run(director, session, tournament.tournament_id, call)
    except RunError as error:  # paused twice, or resumed while playing: the state says no
        raise Conflict(refused, str(error).capitalize() + ".") from None
