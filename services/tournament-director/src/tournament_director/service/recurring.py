"""Recurring sit'n'gos (issue 15, item 13): when one fills, an identical sit'n'go opens, so the lobby always
has a seat to take.

Exactly once: the successor is inserted in the transaction that starts the filled sit'n'go — the one that moves
it, under its row lock, from registering to running, which happens once whatever the number of replicas or the
redeliveries of the payment's answer — and its id is derived from the filled one's, so a second attempt finds
it instead of opening another.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import tournaments
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.kinds import TournamentKind
from tournament_director.service.commands import StopRecurring
from tournament_director.service.context import Director
from tournament_director.service.definitions import open_in_lobby
from tournament_director.service.principals import managed_tournament


def successor_id(tournament_id: str) -> str:
    """The id of the sit'n'go that follows `tournament_id`: the same for every replica and every retry."""
    return f"t-{hashlib.sha256(f'{tournament_id}:next'.encode()).hexdigest()[:16]}"


async def reopen(director: Director, session: AsyncSession, filled: TournamentRecord) -> None:
    """Open the successor of a recurring sit'n'go that just filled (nothing for any other tournament)."""
    if not filled.recurring or filled.definition.kind is not TournamentKind.SIT_AND_GO:
        return
    next_id = successor_id(filled.tournament_id)
    if await tournaments.get(session, next_id) is not None:
        return
    successor = replace(
        filled,
        tournament_id=next_id,
        status=Status.REGISTERING,
        registration_opens_at=None,
        created_at=director.now(),
        started_at=None,
        ended_at=None,
        end_reason=None,
        settled_at=None,
    )
    await open_in_lobby(director, session, successor)


async def stop(director: Director, command: StopRecurring) -> None:
    """The sit'n'go plays as it is, but opens no successor when it fills (under its row lock, as the start that
    would open one). Idempotent: a tournament that does not recur stays as it is."""
    async with director.unit() as uow:
        await managed_tournament(uow.session, command.tournament_id, command.principal)
        await tournaments.stop_recurring(uow.session, command.tournament_id)
