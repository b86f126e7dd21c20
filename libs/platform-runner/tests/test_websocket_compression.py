"""WebSocket messages go uncompressed, whatever the client offers (issue 14: with permessage-deflate the gateway
compressed each fanned-out event once per socket and kept a compressor per socket), and the server sends no
protocol pings of its own."""

from __future__ import annotations

import websockets
from fastapi import FastAPI, WebSocket
from platform_kit.settings import ServiceSettings
from platform_runner.serving import server_config
from runner_serving_support import served

echo = FastAPI()


@echo.websocket("/echo")
async def echo_socket(socket: WebSocket) -> None:
    await socket.accept()
    await socket.send_text(await socket.receive_text())


async def test_a_client_offering_permessage_deflate_gets_plain_frames() -> None:
    # The client offers permessage-deflate (the `websockets` default, as every browser does).
    async with (
        served(echo, ServiceSettings()) as port,
        websockets.connect(f"ws://127.0.0.1:{port}/echo", compression="deflate") as client,
    ):
        await client.send("hello")
        assert await client.recv() == "hello"
        assert client.response is not None
        assert "Sec-WebSocket-Extensions" not in client.response.headers


def test_the_server_sends_no_protocol_pings_the_gateways_heartbeat_does() -> None:
    """Issue 14: uvicorn pings every socket every 20 s unless told not to; the gateway's application heartbeat
    (ws.py) already pings and closes silent sockets; uvicorn's pings were about 7% of a loaded gateway's time."""
    assert server_config(echo, ServiceSettings()).ws_ping_interval is None
