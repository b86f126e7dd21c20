"""House bots for demos (`GATEWAY_DEMO_BOTS`, on in standalone mode): when a person registers for a sit'n'go,
bots take its free seats at once, so a newcomer can play without waiting for others.

The bots are ordinary clients of this gateway's public API (`gateway.bots`), run inside the gateway process.
The consumer of `tournament.player.registered` only queues the tournament (it runs inside a database
transaction); a background worker reads the tournament from the director and sends the bots. Registrations of
bots themselves start nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

from platform_kit.bus import Envelope
from platform_kit.events.tournament import PlayerRegistered
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store
from gateway.adapters.service_client import ServiceClient
from gateway.bots.crew import BotCrew
from gateway.domain.bot_names import is_bot

log = logging.getLogger(__name__)

REGISTERED = PlayerRegistered.TYPE


class HouseBots:
    def __init__(self, director: ServiceClient, crew: BotCrew) -> None:
        self._director = director
        self._crew = crew
        self._pending: asyncio.Queue[str] = asyncio.Queue()
        self._sent: Counter[str] = Counter()  # bots on their way to a tournament, not yet registered
        self._playing: set[asyncio.Task[None]] = set()

    async def registered(self, session: AsyncSession, envelope: Envelope) -> None:
        """`runtime.on(REGISTERED, bots.registered)`."""
        event = envelope.event()
        assert isinstance(event, PlayerRegistered)
        player = await identity_store.get_player(session, event.player_id)
        if player is not None and not is_bot(player.nickname):
            self._pending.put_nowait(event.tournament_id)

    async def run(self) -> None:
        """The worker (`runtime.in_background`); its bots stop with it."""
        try:
            while True:
                tournament_id = await self._pending.get()
                try:
                    await self._fill(tournament_id)
                except Exception:
                    log.warning("house bots could not join %s", tournament_id, exc_info=True)
        finally:
            for task in self._playing:
                task.cancel()
            await asyncio.gather(*self._playing, return_exceptions=True)
            await self._crew.aclose()

    async def _fill(self, tournament_id: str) -> None:
        tournament = (await self._director.request("GET", f"/v1/tournaments/{tournament_id}")).json()
        if tournament.get("kind") != "sit_and_go" or tournament.get("status") != "registering":
            return
        free = int(tournament["max_players"]) - int(tournament["registered"]) - self._sent[tournament_id]
        for _ in range(max(free, 0)):
            self._sent[tournament_id] += 1
            task = asyncio.create_task(self._bot(tournament_id))
            self._playing.add(task)
            task.add_done_callback(self._playing.discard)

    async def _bot(self, tournament_id: str) -> None:
        try:
            await self._crew.fill(tournament_id, 1)
        finally:
            self._sent[tournament_id] -= 1
            with contextlib.suppress(KeyError):
                if self._sent[tournament_id] <= 0:
                    del self._sent[tournament_id]
