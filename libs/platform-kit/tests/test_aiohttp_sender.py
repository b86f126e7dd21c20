"""platform_kit.aiohttp_sender: an httpx client over aiohttp sends what httpx would and reads the answer as httpx
does, and what goes wrong reaches it as the httpx exception a caller catches for it (issue 14: the capacity
benchmark's bots send through it)."""

from __future__ import annotations

import json
import socket

import httpx
import pytest
from platform_kit.aiohttp_sender import AiohttpTransport
from recording_service import RecordingService


async def test_an_httpx_client_over_aiohttp_sends_the_request_and_reads_the_answer_as_httpx_would() -> None:
    service = RecordingService()
    async with service as base_url, httpx.AsyncClient(base_url=base_url, transport=AiohttpTransport()) as http:
        answer = await http.post(
            "/api/v1/draws/d-1/coupons",
            params={"dry": "no"},
            json={"stake": 500, "name": "Niccolò"},
            headers={"Idempotency-Key": "k-1", "Authorization": "Bearer t"},
        )
        again = await http.get("/api/v1/players/me")
    (line, headers, body), (second, _, _) = service.requests
    assert line == "POST /api/v1/draws/d-1/coupons?dry=no HTTP/1.1"
    assert json.loads(body) == {"stake": 500, "name": "Niccolò"}
    assert (headers["content-type"], headers["content-length"]) == ("application/json", str(len(body)))
    assert (headers["idempotency-key"], headers["authorization"]) == ("k-1", "Bearer t")
    assert second == "GET /api/v1/players/me HTTP/1.1"
    assert (answer.status_code, answer.json(), answer.headers["x-seen"]) == (201, {"operation_id": 7}, "yes")
    assert answer.request.url.path == "/api/v1/draws/d-1/coupons", "the answer knows the client's request"
    assert again.status_code == 201


@pytest.mark.parametrize(
    ("behaviour", "error"),
    [("hang_up", httpx.RemoteProtocolError), ("silent", httpx.ReadTimeout)],
)
async def test_a_request_sent_and_not_answered_raises_the_httpx_exception_for_what_happened(
    behaviour: str, error: type[httpx.TransportError]
) -> None:
    """A server that hangs up is not a time-out (the capacity run counts time-outs apart from other failures);
    a server that never answers is one, after the client's own read time-out."""
    service = RecordingService(behaviour)  # type: ignore[arg-type]
    timeout = httpx.Timeout(10.0, read=0.2)  # short: the silent server is waited out this long
    async with service as base_url, httpx.AsyncClient(transport=AiohttpTransport(), timeout=timeout) as http:
        with pytest.raises(error):
            await http.post(base_url + "/api/v1/draws/d-1/coupons", json={"stake": 500})
    assert len(service.requests) == 1, "the request was sent"


async def test_a_server_that_is_not_there_is_a_connect_error() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # closed again: nothing listens there
    async with httpx.AsyncClient(transport=AiohttpTransport()) as http:
        with pytest.raises(httpx.ConnectError):
            await http.get(f"http://127.0.0.1:{port}/healthz")
