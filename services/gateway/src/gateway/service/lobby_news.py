"""The `lobby` channel's public news, with each tournament's registrations coalesced (issue 14).

A 3,000-player registration burst sent one by one to every lobby socket is 3,000 × (lobby sockets) messages.
`tournament.player.registered` / `unregistered` of one tournament are therefore sent on `lobby` at most once per
`GATEWAY_LOBBY_NEWS_INTERVAL_SECONDS`: the first at once, then the latest (its `registered` is the count after
it) when the interval ends (`domain/news_coalescing.py`). Any other lobby event of that tournament (started,
cancelled, …) sends the one held first, so the lobby hears each tournament's news in order. The
`tournament:<id>` channel still carries every registration.

Held news still unsent when the gateway stops is lost, and that is harmless: it is news, the lobby's REST listing
(`GET /tournaments`) is the truth, and clients reconnecting to another gateway reload it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from typing import Any

from platform_kit.events.tournament import PlayerRegistered, PlayerUnregistered

from gateway.domain.news_coalescing import NewsCoalescer
from gateway.service.hub import Hub

LOBBY = "lobby"
REGISTRATION_NEWS = frozenset({PlayerRegistered.TYPE, PlayerUnregistered.TYPE})


class LobbyNews:
    """Publishes the lobby's public messages; `run` is the timer sending the held ones
    (`runtime.in_background`). With an interval of 0, every message goes out at once and `run` is not needed."""

    def __init__(self, hub: Hub, interval: float, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._hub = hub
        self._monotonic = monotonic
        self._coalescer: NewsCoalescer[Mapping[str, Any]] | None = NewsCoalescer(interval) if interval > 0 else None
        self._held = asyncio.Event()  # set when news is held: the timer looks again at when it is due

    def publish(self, message: Mapping[str, Any]) -> None:
        """One public lobby message (`{"event", "occurred_at", "payload"}`), now or held."""
        tournament_id = message["payload"].get("tournament_id") if message["event"].startswith("tournament.") else None
        if self._coalescer is None or tournament_id is None:
            self._hub.publish(LOBBY, message)
            return
        now = self._monotonic()
        if message["event"] in REGISTRATION_NEWS:
            if self._coalescer.offer(tournament_id, message, now) is None:
                self._held.set()
                return
        elif (held := self._coalescer.take(tournament_id, now)) is not None:
            self._hub.publish(LOBBY, held)
        self._hub.publish(LOBBY, message)

    def send_due(self) -> None:
        """Send the held news whose interval has ended (the timer's step)."""
        for message in self._coalescer.due(self._monotonic()) if self._coalescer else ():
            self._hub.publish(LOBBY, message)

    async def run(self) -> None:
        """Send held news as it falls due, for the life of the gateway."""
        if self._coalescer is None:
            return
        while True:
            self._held.clear()
            self.send_due()
            due_at = self._coalescer.next_due()
            wait = None if due_at is None else max(0.0, due_at - self._monotonic())
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that arrives with
            # the timeout, and the gateway's shutdown would wait for a timer that never stops.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._held.wait()
