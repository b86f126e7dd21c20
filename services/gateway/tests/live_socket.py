"""A WebSocket client of `/api/v1/ws` for the live-platform tests: it keeps every frame it received, raw, so that
a test can search all of them, and it waits for frames by a ping/pong round trip instead of by time — the hub
answers a connection's frames in order, so everything a subscription replays arrives before the pong."""

from __future__ import annotations

import json
from typing import Any

from live_cast import Caller
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class SocketRefused(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"closed {code}: {reason}")
        self.code = code
        self.reason = reason


class LiveSocket:
    def __init__(self, ws: ClientConnection) -> None:
        self._ws = ws
        self.received: list[str] = []

    @classmethod
    async def open(cls, gateway_url: str, caller: Caller, socket: str) -> LiveSocket:
        """Authenticated by the caller's token in the first message; a caller without one (anonymous, a
        partner's API key in the handshake) sends a ping instead. Raises `SocketRefused` with the close code."""
        url = gateway_url.replace("http", "ws", 1) + f"/api/v1/ws?socket={socket}"
        headers = {"X-API-Key": caller.api_key} if caller.api_key else {}
        ws = await connect(url, additional_headers=headers, max_queue=None)
        live = cls(ws)
        await live.send({"type": "auth", "token": caller.token} if caller.token else {"type": "ping"})
        welcome = await live._next()
        if welcome.get("type") != "welcome":
            await ws.close()
            raise AssertionError(f"expected a welcome, got {welcome}")
        return live

    async def close(self) -> None:
        await self._ws.close()

    async def send(self, frame: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(frame))

    async def subscribe(self, channel: str, **options: Any) -> list[dict[str, Any]]:
        """The `subscribed` answer and whatever the channel replays (`history=True`, or `epoch` + `last_seq`)."""
        await self.send({"type": "subscribe", "channel": channel, **options})
        return await self.until_pong()

    async def unsubscribe(self, channel: str) -> list[dict[str, Any]]:
        await self.send({"type": "unsubscribe", "channel": channel})
        return await self.until_pong()

    async def until_pong(self) -> list[dict[str, Any]]:
        """Every frame that arrives before the answer to a ping sent now (server pings are answered)."""
        await self.send({"type": "ping"})
        frames = []
        while (frame := await self._next())["type"] != "pong":
            frames.append(frame)
        return frames

    async def _next(self) -> dict[str, Any]:
        while True:
            try:
                text = str(await self._ws.recv())
            except ConnectionClosed as closed:
                received = closed.rcvd
                raise SocketRefused(received.code if received else 1006, received.reason if received else "") from None
            self.received.append(text)
            frame: dict[str, Any] = json.loads(text)
            if frame.get("type") != "ping":
                return frame
            await self.send({"type": "pong"})
