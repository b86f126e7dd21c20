"""A player's commands to their table — act, chat, sit out, contribute to the next deck — sent to the table-engine
shard that owns the table, and accepted (202) only once the broker has confirmed it, so that a command accepted
here is never lost on its way. The gateway keeps no state about them, hence no outbox row (platform_kit.sender);
a 503 `bus_unavailable` says to send it again.

The same use cases serve the REST routes and the table socket's frames. The player is always the
authenticated one: nobody acts or chats for someone else. The table engine decides whether the action is
legal and answers on the table's stream (`table.action.taken`, or a private `table.action.rejected`).
Chat-banned players (P-12.3, P-12.4) are refused here already, before anything reaches the table.
"""

from __future__ import annotations

from platform_kit.errors import Forbidden
from platform_kit.events.base import Command
from platform_kit.events.table import (
    ActionKind,
    ContributeToDeck,
    PlayerAct,
    PostChat,
    SetSittingOut,
    command_routing_key,
)

from gateway.service.context import Context
from gateway.service.restrictions import standing_of


class ChatBanned(Forbidden):
    def __init__(self) -> None:
        super().__init__("chat_banned", "You may not chat at the tables for now (a sanction is in force).")


class TableCommands:
    def __init__(self, context: Context, shards: int) -> None:
        self._context = context
        self._shards = shards

    async def act(self, player_id: str, table_id: str, hand_id: str, action: ActionKind, amount: int | None) -> None:
        command = PlayerAct(table_id=table_id, hand_id=hand_id, player_id=player_id, action=action, amount=amount)
        await self._send(command, table_id)

    async def chat(self, player_id: str, table_id: str, text: str) -> None:
        async with self._context.units.reading() as session:
            standing = await standing_of(session, player_id, self._context.clock.now())
        if not standing.may_chat:
            raise ChatBanned()
        await self._send(PostChat(table_id=table_id, player_id=player_id, text=text), table_id)

    async def sit_out(self, player_id: str, table_id: str, sitting_out: bool) -> None:
        await self._send(SetSittingOut(table_id=table_id, player_id=player_id, sitting_out=sitting_out), table_id)

    async def contribute(self, player_id: str, table_id: str, value: str) -> None:
        """The player's random value for the table's next deck (docs/fair-deal.md); the engine takes it from a
        seated player only."""
        await self._send(ContributeToDeck(table_id=table_id, player_id=player_id, value=value), table_id)

    async def _send(self, command: Command, table_id: str) -> None:
        await self._context.sender.send(command, command_routing_key(command, table_id, self._shards))
