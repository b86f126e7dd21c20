"""Commands a player sends as frames on their table socket, the same as the REST routes of `tables.py`:

    {"type": "act", "table_id": "t-42", "hand_id": "h-7f3a", "action": "raise", "amount": 240, "ref": "a1"}
    {"type": "chat", "table_id": "t-42", "text": "gl all", "ref": "c1"}
    {"type": "sit_out", "table_id": "t-42", "sitting_out": false}
    {"type": "contribute", "table_id": "t-42", "value": "9f2c…", "ref": "d1"}

Answer: `{"type": "accepted", "ref", "table_id"}` once the command is on its way to the table (its outcome comes
on the table's channel), or `{"type": "error", "code", "message", "ref"}`. `ref` is the client's own, echoed.
"""

from __future__ import annotations

from typing import Any

from platform_kit.errors import ProblemError
from pydantic import BaseModel, ValidationError

from gateway.api.v1.proxy_schemas import ChatLine, DeckContribution, SittingOut, TableAction
from gateway.bootstrap import Services
from gateway.domain.channels import Channel, ChannelKind, SocketKind
from gateway.service.hub import Connection
from gateway.service.protection import refuse_play

FRAME_TYPES = frozenset({"act", "chat", "sit_out", "contribute"})
_ENVELOPE_FIELDS = ("type", "table_id", "ref")
_BODIES: dict[str, type[BaseModel]] = {
    "act": TableAction,
    "chat": ChatLine,
    "sit_out": SittingOut,
    "contribute": DeckContribution,
}


class FrameRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def handle_table_frame(services: Services, connection: Connection, frame: dict[str, Any]) -> dict[str, Any]:
    ref = frame.get("ref")
    try:
        table_id = await _command(services, connection, frame)
    except FrameRefused as refusal:
        return {"type": "error", "code": refusal.code, "message": refusal.message, "ref": ref}
    except ProblemError as problem:
        return {"type": "error", "code": problem.code, "message": problem.message, "ref": ref}
    return {"type": "accepted", "ref": ref, "table_id": table_id}


async def _command(services: Services, connection: Connection, frame: dict[str, Any]) -> str:
    player_id = connection.player_id
    if connection.socket is not SocketKind.TABLE or player_id is None:
        raise FrameRefused("not_a_player_table_socket", "Table commands are for players, on a table socket.")
    if services.rate_limiter.check(connection.principal.key, authenticated=True):
        raise FrameRefused("rate_limited", "Too many commands: slow down.")
    table_id = _table_id(frame.get("table_id"))
    kind = str(frame["type"])
    try:
        body = _BODIES[kind].model_validate({k: v for k, v in frame.items() if k not in _ENVELOPE_FIELDS})
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise FrameRefused("bad_frame", problems) from None
    context = services.context
    # As the REST table routes (issue 17); on a bare read connection: every action of every player reads it.
    async with context.units.read_connection() as database:
        await refuse_play(database, player_id, context.clock.now(), own_session=True)
    tables = services.tables
    if isinstance(body, TableAction):
        await tables.act(player_id, table_id, body.hand_id, body.action, body.amount)
    elif isinstance(body, ChatLine):
        await tables.chat(player_id, table_id, body.text)
    elif isinstance(body, SittingOut):
        await tables.sit_out(player_id, table_id, body.sitting_out)
    elif isinstance(body, DeckContribution):
        await tables.contribute(player_id, table_id, body.value)
    return table_id


def _table_id(value: object) -> str:
    try:
        channel = Channel.parse(f"table:{value}") if isinstance(value, str) else None
    except ValueError:
        channel = None
    if channel is None or channel.kind is not ChannelKind.TABLE or channel.entity_id is None:
        raise FrameRefused("bad_frame", "`table_id` names a table (letters, digits, '_' or '-').")
    return channel.entity_id
