"""Keeping the lobby's schedule open (issue 15, item 13; domain/lobby_schedule.py), a background task.

The schedule is the settings' entries and the enabled ones staff keep from the console (service/lobby_entries.py,
read at each pass). Each entry's tournament is created through the same use case as an operator's
(service/definitions.py), by `lobby-schedule` — an administrator, or for an operator's entry an operator of its
concessionaire, whose tournament it is — under its deterministic id: a tournament that exists already is found, not made
again, so replicas and restarts agree. Two replicas racing for the same id: one insert wins, the other fails,
is logged and finds the tournament at its next pass.
"""

from __future__ import annotations

import asyncio
import logging

from tournament_director.adapters import lobby_entries
from tournament_director.domain.lobby_schedule import LobbyEntry, creation_body
from tournament_director.service.commands import CreateTournament
from tournament_director.service.context import Director
from tournament_director.service.handlers import handle
from tournament_director.service.principals import Principal, Role

log = logging.getLogger(__name__)

SCHEDULER = Principal(role=Role.ADMIN, subject_id="lobby-schedule", concessionaire_id=None)


def scheduler_of(concessionaire_id: str | None) -> Principal:
    """Who opens an entry's tournaments: an operator's entry opens them for its concessionaire."""
    if concessionaire_id is None:
        return SCHEDULER
    return Principal(role=Role.OPERATOR, subject_id=SCHEDULER.subject_id, concessionaire_id=concessionaire_id)


class Lobby:
    """Remembers the ids it knows exist, so that a pass costs the read of the stored entries, and a creation only
    for an occurrence not yet seen."""

    def __init__(self, director: Director) -> None:
        self._director = director
        self._open: set[str] = set()

    async def keep(self) -> None:
        """One pass: open whatever entry of the schedule has no tournament yet."""
        director = self._director
        for entry, scheduler in await self._schedule():
            body = creation_body(entry, director.now())
            if body["tournament_id"] in self._open:
                continue
            try:
                await handle(director, CreateTournament(scheduler, body, None))
            except Exception:
                log.exception("a lobby entry could not be opened; tried again later", extra={"entry": entry.key})
                continue
            self._open.add(body["tournament_id"])

    async def _schedule(self) -> list[tuple[LobbyEntry, Principal]]:
        configured = [(entry, SCHEDULER) for entry in self._director.settings.lobby_entries()]
        try:
            async with self._director.runtime.units.reading() as session:
                stored = await lobby_entries.listed(session, enabled_only=True)
        except Exception:
            log.exception("the lobby's stored entries could not be read; the settings' are kept open meanwhile")
            stored = []
        return configured + [(s.entry, scheduler_of(s.concessionaire_id)) for s in stored]

    async def run(self) -> None:
        while True:
            await self.keep()
            await asyncio.sleep(self._director.settings.clock_interval_seconds)
