"""Telling the table engine that a player's table connection dropped or came back (P-13.2): the hub's
`on_table_disconnect` / `on_table_reconnect`, sent as the `table.connection` command to the shard that owns the
table, through the outbox (so a command is never lost between the gateway and the broker).

The hub's callbacks only queue the report; one background worker writes them in order. So a socket's
teardown never waits for the database, and a drop and a return are always reported in that order.
"""

from __future__ import annotations

import asyncio
import logging

from platform_kit.events.table import PlayerConnection, command_routing_key
from platform_kit.unit_of_work import UnitsOfWork

log = logging.getLogger(__name__)


class TablePresenceReporter:
    def __init__(self, units: UnitsOfWork, shards: int, *, retry_seconds: float = 1.0) -> None:
        self._units = units
        self._shards = shards
        self._retry_seconds = retry_seconds
        self._pending: asyncio.Queue[PlayerConnection] = asyncio.Queue()

    def disconnected(self, player_id: str, table_id: str) -> None:
        self._pending.put_nowait(PlayerConnection(table_id=table_id, player_id=player_id, connected=False))

    def reconnected(self, player_id: str, table_id: str) -> None:
        self._pending.put_nowait(PlayerConnection(table_id=table_id, player_id=player_id, connected=True))

    async def run(self) -> None:
        """The worker (`runtime.in_background`). Reports still queued when the gateway stops are dropped: the
        table engine's own action timers still protect the hand."""
        while True:
            command = await self._pending.get()
            while True:
                try:
                    await self._write(command)
                    break
                except Exception:
                    log.exception("could not record a table connection change; retrying")
                    await asyncio.sleep(self._retry_seconds)

    async def _write(self, command: PlayerConnection) -> None:
        routing_key = command_routing_key(command, command.table_id, self._shards)
        async with self._units.unit() as uow:
            await uow.publish(command, routing_key=routing_key)
