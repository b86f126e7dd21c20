"""At most one message per interval on a broadcast channel (issue 14): the lobby's public news.

Every lobby socket follows the `lobby` channel, so each piece of news sent alone is one write per lobby socket:
a 3,000-player registration burst, or a hundred sit'n'gos filling and starting at once, cost (pieces of news) ×
(lobby sockets) writes — the WebSocket writes were a third to almost half of a gateway's main thread while a
hundred sit'n'gos filled (py-spy, capacity run). Coalesced, news on a channel quiet for an interval goes out at
once; what comes within the interval after a send is held, and everything held goes out together when the
interval ends, in the order it came: one message a tick, however many tournaments have news.

News with a key (a tournament's registrations, keyed by the tournament) replaces the news held with the same key:
the latest says everything the lobby shows (the count of players registered). News of one tournament stays in
order with its other news, held or not (held news never passes news sent at once: nothing is sent at once while
anything is held).

Pure: the caller gives the time (monotonic seconds) and sends what it is told to send.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

T = TypeVar("T")


class NewsCoalescer(Generic[T]):
    def __init__(self, interval: float) -> None:
        if interval <= 0:
            raise ValueError("a coalescing interval is positive (0 means: send every piece of news, uncoalesced)")
        self._interval = interval
        self._sent_at = -math.inf  # never sent: the first news goes at once
        self._held: list[tuple[str | None, T]] = []

    def offer(self, news: T, now: float, *, key: str | None = None) -> T | None:
        """`news` to send now (the channel was quiet for an interval), or None when it is held for the next tick;
        held with a `key`, it replaces the news held with that key."""
        if not self._held and now >= self._sent_at + self._interval:
            self._sent_at = now
            return news
        if key is not None:
            self._held = [(k, held) for k, held in self._held if k != key]
        self._held.append((key, news))
        return None

    def due(self, now: float) -> list[T]:
        """Everything held, in order, once the interval after the last send has ended (sent now: the next
        interval starts); else nothing."""
        due_at = self.next_due()
        if due_at is None or now < due_at:
            return []
        sent = [news for _, news in self._held]
        self._held, self._sent_at = [], now
        return sent

    def next_due(self) -> float | None:
        """When what is held is due; None when nothing is held."""
        return self._sent_at + self._interval if self._held else None
