"""A channel's numbered message log: every message gets the next sequence number, and the last
`capacity` messages are kept so that a client who reconnects can resume where it stopped.

A log has an `epoch` (fixed when the log is created): sequence numbers are comparable only within one epoch.
A client that comes back with a position from another epoch (the gateway restarted, another gateway
instance answered, the log was forgotten) is told to resynchronise, as is one whose position has already
left the buffer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


@dataclass(frozen=True, slots=True)
class LoggedMessage:
    seq: int
    data: Mapping[str, Any]
    only_player: str | None = None  # a private message (e.g. hole cards) for this player alone

    def visible_to(self, player_id: str | None) -> bool:
        return self.only_player is None or self.only_player == player_id


class ResyncReason(StrEnum):
    TOO_FAR_BEHIND = "too_far_behind"  # the missed messages have left the replay buffer
    EPOCH_CHANGED = "epoch_changed"  # the position belongs to another life of the log
    AHEAD_OF_LOG = "ahead_of_log"  # a position the log never reached


@dataclass(frozen=True, slots=True)
class Resume:
    missed: tuple[LoggedMessage, ...]


@dataclass(frozen=True, slots=True)
class Resync:
    reason: ResyncReason


class ChannelLog:
    def __init__(self, epoch: str, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("a replay buffer holds at least one message")
        self.epoch = epoch
        self.head = 0  # the sequence number of the last message; 0 before the first
        self._buffer: deque[LoggedMessage] = deque(maxlen=capacity)

    def append(self, data: Mapping[str, Any], only_player: str | None = None) -> LoggedMessage:
        self.head += 1
        message = LoggedMessage(self.head, data, only_player)
        self._buffer.append(message)
        return message

    def kept(self, player_id: str | None) -> tuple[LoggedMessage, ...]:
        """Every message still in the buffer that `player_id` may see: the recent history, for a newcomer."""
        return tuple(m for m in self._buffer if m.visible_to(player_id))

    def resume(self, epoch: str, last_seq: int, player_id: str | None) -> Resume | Resync:
        """The messages after `last_seq` that `player_id` may see, or why the client must resynchronise."""
        if epoch != self.epoch:
            return Resync(ResyncReason.EPOCH_CHANGED)
        if last_seq > self.head or last_seq < 0:
            return Resync(ResyncReason.AHEAD_OF_LOG)
        oldest_kept = self._buffer[0].seq if self._buffer else self.head + 1
        if last_seq + 1 < oldest_kept:
            return Resync(ResyncReason.TOO_FAR_BEHIND)
        return Resume(tuple(m for m in self._buffer if m.seq > last_seq and m.visible_to(player_id)))
