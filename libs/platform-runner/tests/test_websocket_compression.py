"""WebSocket messages go uncompressed, whatever the client offers (issue 14: with permessage-deflate the gateway
compressed each fanned-out event once per socket and kept a compressor per socket)."""

from __future__ import annotations

import asyncio

import uvicorn
import websockets
from fastapi import FastAPI, WebSocket
from platform_kit.settings import ServiceSettings
from platform_kit.testing import eventually
from platform_runner.serving import server_config

echo = FastAPI()


@echo.websocket("/echo")
async def echo_socket(socket: WebSocket) -> None:
    await socket.accept()
    await socket.send_text(await socket.receive_text())


async def test_a_client_offering_permessage_deflate_gets_plain_frames() -> None:
    config = server_config(echo, ServiceSettings())
    config.port = 0
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return server.started

    await eventually(started)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        # The client offers permessage-deflate (the `websockets` default, as every browser does).
        async with websockets.connect(f"ws://127.0.0.1:{port}/echo", compression="deflate") as client:
            await client.send("hello")
            assert await client.recv() == "hello"
            assert client.response is not None
            assert "Sec-WebSocket-Extensions" not in client.response.headers
    finally:
        server.should_exit = True
        await task
