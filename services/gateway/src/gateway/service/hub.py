"""The WebSocket hub of one gateway instance: connections, channel subscriptions, numbered fan-out with replay,
private messages, and table presence.

- `publish(channel, data, only_player=None)` numbers the message on its channel, keeps it in the channel's
  replay buffer and queues it for every subscribed connection allowed to see it (a private message, such as
  hole cards, only for that player's connections: P-1.4).
- A client that reconnects subscribes with the `epoch` and `last_seq` it saw and receives what it missed, or is
  told to resynchronise (fetch a snapshot) when the buffer no longer covers the gap.
- Table channels travel on table sockets, everything else on lobby sockets (P-13.4): losing the lobby socket
  does not touch the player's tables.
- When a player's last connection to a table goes, `on_table_disconnect(player_id, table_id)` is called;
  when they come back, `on_table_reconnect(player_id, table_id)` (to be wired to the table engine, P-13.2).

Everything here runs on the event loop's thread; `publish` never waits (a client too slow to drain its queue is
disconnected and resumes by reconnecting).
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Collection, Mapping
from enum import IntEnum
from typing import Any

from gateway.domain.channels import Channel, ChannelKind, SocketKind
from gateway.domain.replay import ChannelLog, Resync
from gateway.domain.roles import Principal, Role

log = logging.getLogger(__name__)

Frame = dict[str, Any]
TableCallback = Callable[[str, str], Awaitable[None] | None]
ChannelAuthorizer = Callable[[Principal, Channel], bool]


class CloseCode(IntEnum):
    GOING_AWAY = 1001  # the gateway is shutting down: reconnect (to another instance)
    TRY_AGAIN_LATER = 1013  # the gateway is overloaded (its database busy): reconnect in a moment
    BAD_REQUEST = 4400
    UNAUTHENTICATED = 4401
    FORBIDDEN = 4403
    HEARTBEAT_TIMEOUT = 4408
    TOO_SLOW = 4429  # the client did not keep up with its messages: reconnect and resume
    TOO_MANY_ATTEMPTS = 4429  # connection attempts over the address's rate limit (an alias of TOO_SLOW)


class HubRefusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def allow_every_channel(principal: Principal, channel: Channel) -> bool:
    return True


class Connection:
    def __init__(self, connection_id: str, principal: Principal, socket: SocketKind, queue_size: int) -> None:
        self.id = connection_id
        self.principal = principal
        self.socket = socket
        self.pending: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)  # frames as the JSON text sent
        self.channels: set[str] = set()
        self.closing = asyncio.Event()
        self.close_code: int = CloseCode.GOING_AWAY
        self.close_reason = ""
        self.heard_at = 0.0  # event-loop time of the client's last frame, for the heartbeat

    @property
    def player_id(self) -> str | None:
        """Private messages and table presence concern players; staff watching a table have neither."""
        return self.principal.subject_id if self.principal.role is Role.PLAYER else None

    def kick(self, code: int, reason: str) -> None:
        if not self.closing.is_set():
            self.close_code, self.close_reason = code, reason
            self.closing.set()


class Hub:
    def __init__(self, *, replay_capacity: int, send_queue_size: int, new_epoch: Callable[[], str]) -> None:
        self.on_table_disconnect: TableCallback | None = None
        self.on_table_reconnect: TableCallback | None = None
        self.authorize: ChannelAuthorizer = allow_every_channel
        self._replay_capacity = replay_capacity
        self._send_queue_size = send_queue_size
        self._new_epoch = new_epoch
        self._ids = itertools.count(1)
        self._connections: dict[str, Connection] = {}
        self._subscribers: defaultdict[str, set[Connection]] = defaultdict(set)
        # A player's connections: a private message (a seat pushed on the lobby, which thousands follow) goes
        # straight to them instead of being checked against every subscriber of its channel.
        self._of_player: defaultdict[str, set[Connection]] = defaultdict(set)
        self._logs: dict[str, ChannelLog] = {}
        self._at_table: Counter[tuple[str, str]] = Counter()  # (player, table) -> connections subscribed
        self._away: set[tuple[str, str]] = set()  # reported disconnected, not yet back

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    # -- connections -----------------------------------------------------------------------------------------
    def connect(self, principal: Principal, socket: SocketKind) -> Connection:
        connection = Connection(str(next(self._ids)), principal, socket, self._send_queue_size)
        self._connections[connection.id] = connection
        if connection.player_id is not None:
            self._of_player[connection.player_id].add(connection)
        return connection

    async def disconnect(self, connection: Connection) -> None:
        if self._connections.pop(connection.id, None) is None:
            return
        if connection.player_id is not None:
            players = self._of_player[connection.player_id]
            players.discard(connection)
            if not players:
                del self._of_player[connection.player_id]
        for name in list(connection.channels):
            await self.unsubscribe(connection, name)

    def kick_player(self, player_id: str, code: int, reason: str) -> int:
        """Close every connection of a player (e.g. banned); returns how many."""
        kicked = list(self._of_player.get(player_id, ()))
        for connection in kicked:
            connection.kick(code, reason)
        return len(kicked)

    def close_all(self) -> None:
        for connection in self._connections.values():
            connection.kick(CloseCode.GOING_AWAY, "gateway shutting down")

    # -- subscriptions ---------------------------------------------------------------------------------------
    async def subscribe(
        self,
        connection: Connection,
        name: str,
        *,
        last_seq: int | None = None,
        epoch: str | None = None,
        history: bool = False,
    ) -> None:
        """Acknowledge with the channel's epoch and head, then replay what the client missed since `last_seq`
        (or ask it to resynchronise). Without a position, `history` replays what the channel still keeps: a
        player opening a table a moment after its hand started gets that hand (and their own cards) too.
        Raises `HubRefusal` for a channel it may not have."""
        try:
            channel = Channel.parse(name)
        except ValueError as error:
            raise HubRefusal("unknown_channel", str(error)) from None
        if channel.socket is not connection.socket:
            raise HubRefusal("wrong_socket", f"{channel.kind} channels travel on {channel.socket} sockets (P-13.4)")
        if name in connection.channels:
            raise HubRefusal("already_subscribed", f"already subscribed to {name}")
        if not self.authorize(connection.principal, channel):
            raise HubRefusal("forbidden_channel", f"not allowed to follow {name}")
        channel_log = self._log(name)
        resumed = None if last_seq is None else channel_log.resume(epoch or "", last_seq, connection.player_id)
        self._deliver(
            connection,
            {
                "type": "subscribed",
                "channel": name,
                "epoch": channel_log.epoch,
                "seq": channel_log.head,
                "resync": resumed.reason.value if isinstance(resumed, Resync) else None,
            },
        )
        if resumed is not None and not isinstance(resumed, Resync):
            for missed in resumed.missed:
                self._deliver(connection, _message_frame(name, missed.seq, missed.data))
        elif resumed is None and history:
            for kept in channel_log.kept(connection.player_id):
                self._deliver(connection, _message_frame(name, kept.seq, kept.data))
        # No await since the replay was read: no message can slip between the replay and the live stream.
        connection.channels.add(name)
        self._subscribers[name].add(connection)
        if channel.kind is ChannelKind.TABLE and connection.player_id and channel.entity_id:
            await self._joined_table(connection.player_id, channel.entity_id)

    async def unsubscribe(self, connection: Connection, name: str) -> None:
        if name not in connection.channels:
            return
        connection.channels.discard(name)
        subscribers = self._subscribers[name]
        subscribers.discard(connection)
        if not subscribers:
            del self._subscribers[name]
        channel = Channel.parse(name)
        if channel.kind is ChannelKind.TABLE and connection.player_id and channel.entity_id:
            await self._left_table(connection.player_id, channel.entity_id)

    # -- publishing ------------------------------------------------------------------------------------------
    def publish(self, channel: str, message: Mapping[str, Any], only_player: str | None = None) -> int:
        """Number `message` on `channel` and send it to the subscribers who may see it; returns its seq."""
        Channel.parse(channel)  # refuse a malformed name before it creates a log
        logged = self._log(channel).append(message, only_player)
        receivers: Collection[Connection]
        if only_player is None:
            receivers = self._subscribers.get(channel, ())
        else:
            receivers = [c for c in self._of_player.get(only_player, ()) if channel in c.channels]
        if receivers:
            # Encoded once for every subscriber: a table's events go to all its watchers.
            text = encode(_message_frame(channel, logged.seq, message))
            for connection in receivers:
                self._enqueue(connection, text)
        return logged.seq

    def forget(self, channel: str) -> None:
        """Drop a finished channel's log (a closed table, a settled draw). Clients that come back with a position
        in it are told to resynchronise."""
        self._logs.pop(channel, None)
        parsed = Channel.parse(channel)
        if parsed.kind is ChannelKind.TABLE:
            self._away = {(player, table) for player, table in self._away if table != parsed.entity_id}

    def send(self, connection: Connection, frame: Frame) -> None:
        """A frame for one connection only (answers, errors, pings), in order with its channel messages."""
        self._deliver(connection, frame)

    # -- internals -------------------------------------------------------------------------------------------
    def _log(self, name: str) -> ChannelLog:
        channel_log = self._logs.get(name)
        if channel_log is None:
            channel_log = self._logs[name] = ChannelLog(self._new_epoch(), self._replay_capacity)
        return channel_log

    def _deliver(self, connection: Connection, frame: Frame) -> None:
        self._enqueue(connection, encode(frame))

    def _enqueue(self, connection: Connection, text: str) -> None:
        try:
            connection.pending.put_nowait(text)
        except asyncio.QueueFull:
            connection.kick(CloseCode.TOO_SLOW, "too many undelivered messages; reconnect and resume")

    async def _joined_table(self, player_id: str, table_id: str) -> None:
        key = (player_id, table_id)
        self._at_table[key] += 1
        if self._at_table[key] == 1 and key in self._away:
            self._away.discard(key)
            await _notify(self.on_table_reconnect, player_id, table_id)

    async def _left_table(self, player_id: str, table_id: str) -> None:
        key = (player_id, table_id)
        self._at_table[key] -= 1
        if self._at_table[key] <= 0:
            del self._at_table[key]
            self._away.add(key)
            await _notify(self.on_table_disconnect, player_id, table_id)


def encode(frame: Frame) -> str:
    """A frame as its WebSocket text (what Starlette's `send_json` would send)."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def _message_frame(channel: str, seq: int, data: Mapping[str, Any]) -> Frame:
    return {"type": "message", "channel": channel, "seq": seq, "data": dict(data)}


async def _notify(callback: TableCallback | None, player_id: str, table_id: str) -> None:
    if callback is None:
        return
    try:
        outcome = callback(player_id, table_id)
        if inspect.isawaitable(outcome):
            await outcome
    except Exception:
        # The table engine being unreachable must not break the hub; the engine's own timers still run.
        log.exception("table presence callback failed", extra={"player_id": player_id, "table_id": table_id})
