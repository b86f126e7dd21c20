"""At most one piece of news per key and interval (issue 14): the lobby's registration news of one tournament.

Every lobby socket follows the `lobby` channel, so a registration burst of N players sent one by one costs
N × (lobby sockets) messages. Coalesced, the first news of a key goes out at once, later ones within the interval
are held — each replacing the one held before, since the latest says everything the lobby shows (the count of
registered players) — and the one held goes out when the interval ends. A key quiet for an interval is
forgotten, so its next news goes out at once again.

Pure: the caller gives the time (monotonic seconds) and sends what it is told to send.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class _Slot(Generic[T]):
    sent_at: float
    held: T | None = None


class NewsCoalescer(Generic[T]):
    def __init__(self, interval: float) -> None:
        if interval <= 0:
            raise ValueError("a coalescing interval is positive (0 means: send every piece of news, uncoalesced)")
        self._interval = interval
        self._slots: dict[str, _Slot[T]] = {}

    def offer(self, key: str, news: T, now: float) -> T | None:
        """`news` to send now, or None when it is held until the key's interval ends."""
        slot = self._slots.get(key)
        if slot is None or now >= slot.sent_at + self._interval:  # quiet, or the timer is late: the latest goes
            self._slots[key] = _Slot(now)
            return news
        slot.held = news
        return None

    def take(self, key: str, now: float) -> T | None:
        """What is held for `key`, to send before a later piece of news of that key that is never held (the
        tournament started or was cancelled): the lobby hears a key's news in order."""
        slot = self._slots.get(key)
        if slot is None or slot.held is None:
            return None
        news, slot.held, slot.sent_at = slot.held, None, now
        return news

    def due(self, now: float) -> list[T]:
        """The news whose interval has ended, to send now; quiet keys are forgotten."""
        sent: list[T] = []
        for key, slot in list(self._slots.items()):
            if now < slot.sent_at + self._interval:
                continue
            if slot.held is None:
                del self._slots[key]
            else:
                sent.append(slot.held)
                self._slots[key] = _Slot(now)
        return sent

    def next_due(self) -> float | None:
        """When the earliest news held is due; None when nothing is held."""
        return min((s.sent_at + self._interval for s in self._slots.values() if s.held is not None), default=None)
