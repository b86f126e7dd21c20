"""WebSocket clients for a fan-out load, as light as a Python client can be: each socket is a bare asyncio
protocol that parses the server's frames in place and hands each text message to a callback, with no task, queue
or future per message. The `websockets` library's client, a few times dearer per message, made the benchmark's
own process the bottleneck of a 3,000-socket fan-out on two cores (it and the gateway each at a full core):
latency then measured the load generator. Used by bench_gateway.py, which is where this one is measured against.

Only what the benchmark needs of RFC 6455: the opening handshake, unfragmented frames from the server (the
gateway's messages are small), masked text frames to it, answers to pings, and closing.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable
from urllib.parse import urlsplit

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
OnText = Callable[["WebSocketClient", bytes], None]


class WebSocketClient(asyncio.Protocol):
    """One socket. `on_text(client, payload)` is called with every text message's bytes, in the event loop's callback
    (so it must be quick); `texts` holds them too while `queued` (the set-up phase, where a coroutine waits for
    answers)."""

    def __init__(self, on_text: OnText | None = None) -> None:
        self.on_text = on_text
        self.queued = True
        self.texts: asyncio.Queue[bytes] = asyncio.Queue()
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._handshaken = False

    # -- the protocol ------------------------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._handshaken and not self._read_handshake():
            return
        buffer, position = self._buffer, 0
        while len(buffer) - position >= 2:
            first, second = buffer[position], buffer[position + 1]
            length, header = second & 0x7F, 2
            if length == 126:
                length, header = int.from_bytes(buffer[position + 2 : position + 4], "big"), 4
            elif length == 127:
                length, header = int.from_bytes(buffer[position + 2 : position + 10], "big"), 10
            if len(buffer) - position < header + length:
                break
            payload = bytes(buffer[position + header : position + header + length])
            position += header + length
            self._frame(first & 0x0F, bool(first & 0x80), payload)
        del buffer[:position]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed before the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    # -- to the server -----------------------------------------------------------------------------------------
    def send_text(self, text: str) -> None:
        self._send(TEXT, text.encode())

    def close(self) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._send(CLOSE, (1000).to_bytes(2, "big"))
            self._transport.close()

    def _send(self, opcode: int, payload: bytes) -> None:
        assert self._transport is not None
        size = len(payload)
        length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big")
        mask = os.urandom(4)
        keys = int.from_bytes((mask * (size // 4 + 1))[:size], "big")
        masked = (int.from_bytes(payload, "big") ^ keys).to_bytes(size, "big")
        self._transport.write(bytes([0x80 | opcode]) + length + mask + masked)

    # -- internals ---------------------------------------------------------------------------------------------
    def _read_handshake(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        status = bytes(self._buffer[: self._buffer.find(b"\r\n")])
        del self._buffer[: end + 4]
        if b" 101 " not in status + b" ":
            self.opened.set_exception(ConnectionError(f"no upgrade: {status!r}"))
            assert self._transport is not None
            self._transport.close()
            return False
        self._handshaken = True
        self.opened.set_result(None)
        return True

    def _frame(self, opcode: int, final: bool, payload: bytes) -> None:
        if not final:
            raise ConnectionError("a fragmented message: more than this client reads")
        if opcode == TEXT:
            if self.queued:
                self.texts.put_nowait(payload)
            elif self.on_text is not None:
                self.on_text(self, payload)
        elif opcode == PING:
            self._send(PONG, payload)
        elif opcode == CLOSE:
            self.close()


async def connect(url: str, on_text: OnText | None = None) -> WebSocketClient:
    """A client connected to `url` (ws://host:port/path?query), its handshake done."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    loop = asyncio.get_running_loop()
    _, client = await loop.create_connection(lambda: WebSocketClient(on_text), parts.hostname, parts.port)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16)).decode()
    assert client._transport is not None
    client._transport.write(
        f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await client.opened
    return client
