"""Where a capacity bot sits, learnt as the web client learns it: from its lobby socket (issue 14).

The bot opens a lobby socket (`?socket=lobby`) before it registers and follows the `lobby` channel, on which the
gateway pushes to each seated player alone the `table.table.opened` naming its seat and the `table.player.seated`
naming it (a move), and tells everyone when a tournament finishes or is cancelled. The director's
`GET /players/{id}/tournaments` is the fallback only: read when no seat was pushed for a slow while (15–30 s),
once after the lobby socket reconnected (news may have been missed), and a few seconds after the bot left a table
with no new seat pushed — the end, when it has a finishing position.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping
from typing import Any

from harness.client import ApiError, Session, Unreachable

from capacity.client import LobbySocket, after_reconnecting, follow
from capacity.metrics import Meter

log = logging.getLogger(__name__)

#: Between two readings of the bot's place over REST while no seat is pushed (a random time in this range).
FALLBACK_LOOK = (15.0, 30.0)
#: After leaving a table with no new seat pushed, the wait before reading whether the bot is out.
LEFT_GRACE = 3.0
#: How long the bot waits for its lobby socket before registering anyway (the fallback covers a late socket).
CONNECT_PATIENCE = 10.0
OVER = frozenset({"tournament.tournament.finished", "tournament.tournament.cancelled"})


class Seating:
    def __init__(self, session: Session, tournament_id: str, rng: random.Random, meter: Meter) -> None:
        self.session = session
        self.tournament_id = tournament_id
        self.rng = rng
        self.meter = meter
        self.socket = LobbySocket(session)
        #: The last table the lobby socket (or a REST read) said the bot sits at.
        self.table: str | None = None
        self.over = False  # the tournament finished or was cancelled
        self.resync = False  # the lobby socket reconnected: what it missed is read over REST
        self._news = asyncio.Event()  # a seat pushed, the end, a reconnection
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def me(self) -> str:
        return self.session.player_id

    async def open(self) -> None:
        """Connect and follow `lobby` (once; before registering, so that no seat is pushed before it listens)."""
        if self._tasks:
            return
        await self.socket.subscribe("lobby")
        self._tasks = [
            asyncio.create_task(follow(self.socket, self.hear, self.me)),
            asyncio.create_task(after_reconnecting(self.socket, self._reconnected)),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.socket.connected.wait(), CONNECT_PATIENCE)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.socket.close()

    def hear(self, event: str, payload: Mapping[str, Any], _occurred_at: str | None = None) -> None:
        """One lobby message: the bot's seat, or its tournament's end; the rest (others' tournaments, the
        coalesced registration news) is not the bot's business."""
        if payload.get("tournament_id") != self.tournament_id:
            return
        if self._seats_me(event, payload):
            self._seated(str(payload["table_id"]))
        elif event in OVER:
            self.over = True
            self._news.set()

    async def next_table(self, gone: str | None) -> str | None:
        """The bot's table (not `gone`, the one it just left), or None once it is out or the tournament over."""
        wait = LEFT_GRACE if gone is not None else self.rng.uniform(*FALLBACK_LOOK)
        while True:
            if self.over:
                return None
            if self.table is not None and self.table != gone:
                return self.table
            if self.resync or not await self._heard_within(wait):
                self.resync = False
                entry = await self._my_entry()
                status = entry.get("status") if entry else None
                if entry and (entry.get("position") is not None or status in ("finished", "cancelled")):
                    return None
                if entry and entry.get("table_id") and entry["table_id"] != gone:
                    self.meter.count("tables read over REST (fallback)")
                    self.table = str(entry["table_id"])
                wait = self.rng.uniform(*FALLBACK_LOOK)

    # -- internals ---------------------------------------------------------------------------------------------
    def _seats_me(self, event: str, payload: Mapping[str, Any]) -> bool:
        if event == "table.table.opened":
            return any(seat["player_id"] == self.me for seat in payload["seats"])
        return event == "table.player.seated" and payload["player"]["player_id"] == self.me

    def _seated(self, table: str) -> None:
        if table != self.table:
            self.meter.count("tables pushed on the lobby socket")
        self.table = table
        self._news.set()

    async def _heard_within(self, seconds: float) -> bool:
        self._news.clear()
        try:
            await asyncio.wait_for(self._news.wait(), seconds)
        except TimeoutError:
            return False
        return True

    def _reconnected(self) -> None:
        self.meter.count("lobby socket reconnects")
        self.resync = True
        self._news.set()

    async def _my_entry(self) -> Mapping[str, Any] | None:
        try:
            mine = await self.session.call("GET", f"/players/{self.me}/tournaments")
        except (ApiError, Unreachable) as error:
            log.warning("bot %s could not read its tournaments: %s", self.me, error)
            return None
        found = [e for e in mine if e.get("tournament_id") == self.tournament_id] if isinstance(mine, list) else []
        return found[0] if found else None
