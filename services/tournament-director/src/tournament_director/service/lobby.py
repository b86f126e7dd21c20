"""Keeping the lobby's schedule open (issue 15, item 13; domain/lobby_schedule.py), a background task.

Each entry's tournament is created through the same use case as an operator's (service/definitions.py), by the
`lobby-schedule` administrator, under its deterministic id: a tournament that exists already is found, not made
again, so replicas and restarts agree. Two replicas racing for the same id: one insert wins, the other fails,
is logged and finds the tournament at its next pass.
"""

from __future__ import annotations

import asyncio
import logging

from tournament_director.domain.lobby_schedule import creation_body
from tournament_director.service import definitions
from tournament_director.service.context import Director
from tournament_director.service.principals import Principal, Role

log = logging.getLogger(__name__)

SCHEDULER = Principal(role=Role.ADMIN, subject_id="lobby-schedule", concessionaire_id=None)


class Lobby:
    """Remembers the ids it knows exist, so that a pass costs a query only for an occurrence not yet seen."""

    def __init__(self, director: Director) -> None:
        self._director = director
        self._open: set[str] = set()

    async def keep(self) -> None:
        """One pass: open whatever entry of the schedule has no tournament yet."""
        director = self._director
        for entry in director.settings.lobby_entries():
            body = creation_body(entry, director.now())
            if body["tournament_id"] in self._open:
                continue
            try:
                await definitions.create(director, SCHEDULER, body, None)
            except Exception:
                log.exception("a lobby entry could not be opened; tried again later", extra={"entry": entry.key})
                continue
            self._open.add(body["tournament_id"])

    async def run(self) -> None:
        while True:
            await self.keep()
            await asyncio.sleep(self._director.settings.clock_interval_seconds)
