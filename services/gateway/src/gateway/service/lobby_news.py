"""The `lobby` channel's public news, coalesced (issue 14, `domain/news_coalescing.py`).

Every lobby socket follows `lobby`, so a piece of news sent alone is a write per lobby socket, and a registration
burst or a hundred sit'n'gos filling and starting at once are thousands of them. The public news (a tournament
announced, its registrations, its start, a draw closed, …) therefore goes out at most once per
`GATEWAY_LOBBY_NEWS_INTERVAL_SECONDS`: at once after a quiet interval, else held and sent with everything else
held when the interval ends — one held message alone as itself, several as ONE lobby message
`{"event": "lobby.news", "occurred_at", "payload": {"news": [message, …]}}`, in the order they came. A
tournament's registration news held replaces the one held before it (its `registered` is the count after it).
The private messages of the lobby (a player's seat) are not held: they go to one socket each. The
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

from gateway.domain.lobby_digest import digest
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
        if self._coalescer is None:
            self._hub.publish(LOBBY, message)
            return
        key = message["payload"].get("tournament_id") if message["event"] in REGISTRATION_NEWS else None
        if self._coalescer.offer(message, self._monotonic(), key=key) is None:
            self._held.set()
        else:
            self._hub.publish(LOBBY, message)

    def send_due(self) -> None:
        """Send the held news once it is due (the timer's step): all of it, in one message."""
        due = self._coalescer.due(self._monotonic()) if self._coalescer else []
        if len(due) == 1:
            self._hub.publish(LOBBY, due[0])
        elif due:
            self._hub.publish(LOBBY, digest(due))

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
