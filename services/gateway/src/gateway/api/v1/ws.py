"""`/api/v1/ws`: the WebSocket stream of the lobby, tables, tournaments and draws.

Connect with `?socket=lobby` (default: `lobby`, `tournament:<id>`, `draw:<id>`) or `?socket=table`
(`table:<id>`): tables have their own socket, so losing the lobby connection leaves them alone (P-13.4).
Authenticate with `?token=<access token>` or, better (query strings end up in proxy logs), with the first
message `{"type": "auth", "token": "…"}`.

Client → server                                         Server → client
`{"type": "auth", "token": …}`                          `{"type": "welcome", "connection_id", "socket", "principal",
                                                           "heartbeat_seconds"}`
`{"type": "subscribe", "channel": "table:42",           `{"type": "subscribed", "channel", "epoch", "seq",
  "epoch": "…", "last_seq": 17}` (both optional;          "resync": null | "too_far_behind" | "epoch_changed" | …}`
  or `"history": true`: the channel's recent messages)
                                                        `{"type": "message", "channel", "seq", "data"}`
`{"type": "unsubscribe", "channel": …}`                 `{"type": "unsubscribed", "channel"}`
`{"type": "ping"}` / `{"type": "pong"}`                 `{"type": "pong"}` / `{"type": "ping"}`
                                                        `{"type": "error", "code", "message", "channel"?}`
Table sockets, players only (`table_frames.py`):
`{"type": "act" | "chat" | "sit_out" | "contribute",    `{"type": "accepted", "ref", "table_id"}` or an error
  "table_id", …, "ref"?}`                                 with the same `ref`

On `lobby`, public news comes at most once a second: several pieces in one message whose `data` is
`{"event": "lobby.news", "occurred_at", "payload": {"news": [data, …]}}`, each piece read as if it came alone.

To resume after a reconnect, subscribe with the channel's `epoch` and the last `seq` received: the missed
messages follow the `subscribed` answer. When `resync` is set, fetch the current state over REST and carry on
from the `seq` in the answer. A connection silent for longer than the heartbeat timeout is closed (4408).
Close codes: 4400 bad request, 4401 not authenticated, 4403 forbidden (e.g. banned), 4408 heartbeat timeout,
4429 too slow or too many connection attempts, 1001 gateway shutting down, 1013 gateway busy (its database:
reconnect in a moment).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Query, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import TimeoutError as PoolTimeout

from gateway.api.access import AccessPolicy, client_address, principal_from_token, services_of, socket_policy
from gateway.api.v1 import API_V1
from gateway.api.v1.schemas import PrincipalView
from gateway.api.v1.table_frames import FRAME_TYPES, handle_table_frame
from gateway.bootstrap import Services
from gateway.domain.channels import SocketKind
from gateway.domain.roles import Principal, Role
from gateway.service.errors import Unauthenticated
from gateway.service.hub import CloseCode, Connection, HubRefusal
from gateway.service.restrictions import standing_of

log = logging.getLogger(__name__)

router = APIRouter(prefix=API_V1, tags=["streams"])


@router.websocket("/ws")
async def stream(
    websocket: WebSocket,
    policy: Annotated[AccessPolicy, Depends(socket_policy(Role.PLAYER, Role.OPERATOR, Role.ADMIN))],
    socket: Annotated[SocketKind, Query(description="lobby or table (P-13.4)")] = SocketKind.LOBBY,
    token: Annotated[str | None, Query(description="Access token; or send it as the first message.")] = None,
) -> None:
    services = services_of(websocket)
    await websocket.accept()
    if services.rate_limiter.check(client_address(websocket), authenticated=False):
        await _close(websocket, CloseCode.TOO_MANY_ATTEMPTS, "too many connection attempts")
        return
    principal = await _authenticate(websocket, services, token, policy)
    if principal is None:
        return
    hub = services.hub
    connection = hub.connect(principal, socket)
    try:
        await websocket.send_json(
            {
                "type": "welcome",
                "connection_id": connection.id,
                "socket": socket.value,
                "principal": PrincipalView.of(principal).model_dump(mode="json"),
                "heartbeat_seconds": services.heartbeat_seconds,
            }
        )
        client_left = await _serve(websocket, services, connection)
    finally:
        await hub.disconnect(connection)
    if not client_left:
        await _close(websocket, connection.close_code, connection.close_reason)


async def _authenticate(
    websocket: WebSocket, services: Services, token: str | None, policy: AccessPolicy
) -> Principal | None:
    """The connection's principal, or None after closing the socket with the reason."""
    if token is None:
        token = await _first_message_token(websocket, services.heartbeat_timeout_seconds)
        if token is None:
            await _close(websocket, CloseCode.UNAUTHENTICATED, "send {type: auth, token} first")
            return None
    try:
        principal = principal_from_token(services, token)
    except Unauthenticated as error:
        await _close(websocket, CloseCode.UNAUTHENTICATED, error.code)
        return None
    if principal.role not in policy.roles:
        await _close(websocket, CloseCode.FORBIDDEN, "role_not_allowed")
        return None
    if principal.role is Role.PLAYER:
        try:
            async with services.context.units.reading() as session:
                standing = await standing_of(session, principal.subject_id, services.context.clock.now())
        except PoolTimeout:  # a rush (thousands of lobbies connecting as they register): not a fault
            await _close(websocket, CloseCode.TRY_AGAIN_LATER, "gateway_busy")
            return None
        if not standing.may_log_in:
            await _close(websocket, CloseCode.FORBIDDEN, "player_banned")
            return None
    return principal


async def _first_message_token(websocket: WebSocket, timeout: float) -> str | None:
    try:
        first = json.loads(await asyncio.wait_for(websocket.receive_text(), timeout))
    except (TimeoutError, ValueError, WebSocketDisconnect):
        return None
    if isinstance(first, dict) and first.get("type") == "auth" and isinstance(first.get("token"), str):
        return str(first["token"])
    return None


async def _serve(websocket: WebSocket, services: Services, connection: Connection) -> bool:
    """Read, write and watch the heartbeat until one of them ends: the client left (True), or the hub closed the
    connection (False). A task group, so that no task outlives the connection."""
    connection.heard_at = asyncio.get_running_loop().time()
    client_left = False

    async with anyio.create_task_group() as group:

        async def first_to_end_ends_all(job: Callable[[], Awaitable[object]]) -> None:
            nonlocal client_left
            try:
                await job()
            except WebSocketDisconnect:
                client_left = True
            except Exception:
                log.warning("websocket ended by an error", exc_info=True)
            group.cancel_scope.cancel()

        for job in (
            functools.partial(_read, websocket, services, connection),
            functools.partial(_write, websocket, connection),
            functools.partial(_watch_heartbeat, services, connection),
            connection.closing.wait,
        ):
            group.start_soon(first_to_end_ends_all, job)
    return client_left


async def _read(websocket: WebSocket, services: Services, connection: Connection) -> None:
    hub = services.hub
    loop = asyncio.get_running_loop()
    while True:
        text = await websocket.receive_text()
        connection.heard_at = loop.time()
        try:
            frame = json.loads(text)
            if not isinstance(frame, dict):
                raise ValueError("not an object")
        except ValueError:
            hub.send(connection, _error("bad_frame", "Frames are JSON objects with a `type`."))
            continue
        await _handle(services, connection, frame)


async def _handle(services: Services, connection: Connection, frame: dict[str, Any]) -> None:
    hub = services.hub
    kind = frame.get("type")
    channel = frame.get("channel")
    if kind == "ping":
        hub.send(connection, {"type": "pong"})
    elif kind == "pong":
        pass  # being heard is all a pong is for
    elif kind in ("subscribe", "unsubscribe") and isinstance(channel, str):
        try:
            if kind == "subscribe":
                last_seq, epoch = frame.get("last_seq"), frame.get("epoch")
                await hub.subscribe(
                    connection,
                    channel,
                    last_seq=last_seq if isinstance(last_seq, int) else None,
                    epoch=epoch if isinstance(epoch, str) else None,
                    history=frame.get("history") is True,
                )
            else:
                await hub.unsubscribe(connection, channel)
                hub.send(connection, {"type": "unsubscribed", "channel": channel})
        except HubRefusal as refusal:
            hub.send(connection, _error(refusal.code, refusal.message, channel=channel))
    elif kind in FRAME_TYPES:
        hub.send(connection, await handle_table_frame(services, connection, frame))
    else:
        hub.send(
            connection,
            _error(
                "bad_frame",
                "Unknown frame: expected ping, pong, subscribe, unsubscribe, act, chat, sit_out or contribute.",
            ),
        )


async def _write(websocket: WebSocket, connection: Connection) -> None:
    while True:
        await websocket.send_text(await connection.pending.get())


async def _watch_heartbeat(services: Services, connection: Connection) -> None:
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(services.heartbeat_seconds)
        if loop.time() - connection.heard_at > services.heartbeat_timeout_seconds:
            connection.kick(CloseCode.HEARTBEAT_TIMEOUT, "no pong within the heartbeat timeout")
            return
        services.hub.send(connection, {"type": "ping"})


def _error(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **details}


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close(code=code, reason=reason[:120])
