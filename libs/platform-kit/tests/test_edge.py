"""The kit's edge middleware: control characters refused (422 `control_characters`, naming the field) and request
bodies bounded per route family (413 `request_too_large`), enforced while the body streams in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI, Request
from messaging_fixture import metadata
from platform_kit.app import create_service_app
from platform_kit.bus import InMemoryBus
from platform_kit.edge import BodyLimits, EdgeMiddleware
from platform_kit.runtime import ServiceRuntime
from platform_kit.settings import ServiceSettings, service_config
from starlette.types import Message, Receive, Scope, Send


class DemoSettings(ServiceSettings):
    model_config = service_config("demo")
    service_name: str = "demo"


router = APIRouter()


@router.post("/echo/{name}")
async def echo(name: str, request: Request) -> dict[str, Any]:
    return {"name": name, "query": dict(request.query_params), "body": (await request.body()).decode()}


@router.get("/look/{name}")
async def look(name: str) -> dict[str, str]:
    return {"name": name}


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    """Nothing here needs the database or the bus: the app is not started."""
    settings = DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/demo.db", max_body_bytes=2048)
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=InMemoryBus())
    return create_service_app(
        runtime, title="Demo", description="edge", routers=[router], body_limits={"/echo/small": 1024}
    )


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://demo")


def refused_fields(response: httpx.Response) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "control_characters"
    return [error["field"] for error in response.json()["errors"]]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"reference": "a\u0000b"}, ["body.reference"]),
        ({"note": "ok", "items": [{"name": "fine"}, {"name": "bell\u0007"}]}, ["body.items.1.name"]),
        ({"bad\u001fkey": 1}, ["body.bad\ufffdkey"]),
        ({"delete": "\u007f"}, ["body.delete"]),
        ({"first": "\u0001", "second": "\u0002"}, ["body.first", "body.second"]),
    ],
)
async def test_control_characters_in_json_strings_are_refused_by_field(
    app: FastAPI, body: dict[str, Any], fields: list[str]
) -> None:
    async with client(app) as http:
        assert refused_fields(await http.post("/echo/x", json=body)) == fields


async def test_raw_control_bytes_are_refused_too(app: FastAPI) -> None:
    """Not only the \\u0000 escapes a JSON encoder writes: raw bytes a hand-made request may carry."""
    async with client(app) as http:
        raw_del = await http.post("/echo/x", content=b'{"reference": "a\x7fb"}')
        raw_nul = await http.post("/echo/x", content=b'{"reference": "a\x00b"}')
    assert refused_fields(raw_del) == ["body.reference"]
    assert refused_fields(raw_nul) == ["body.reference"]


async def test_tab_line_feed_carriage_return_and_other_text_pass_unchanged(app: FastAPI) -> None:
    body = {"reason": "line one\r\nline two\tend", "name": "Müller \u00e9\u20ac"}
    encoded = json.dumps(body).encode()  # ASCII with \u00XX escapes: the slow path, parsed and let through
    async with client(app) as http:
        answer = await http.post("/echo/x", content=encoded, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["body"] == encoded.decode()


async def test_a_body_that_is_not_json_is_left_to_the_route(app: FastAPI) -> None:
    async with client(app) as http:
        answer = await http.post("/echo/x", content=b"not json \\u0000")
    assert answer.status_code == 200
    assert answer.json()["body"] == "not json \\u0000"


async def test_control_characters_in_the_query_and_the_path_are_refused(app: FastAPI) -> None:
    async with client(app) as http:
        in_query = await http.get("/look/x", params={"since": "2026\x00", "fine": "a"})
        in_path = await http.get("/look/a%00b")
        allowed = await http.get("/look/x", params={"q": "tab\there"})
    assert refused_fields(in_query) == ["query.since"]
    assert refused_fields(in_path) == ["path"]
    assert allowed.status_code == 200


async def test_bodies_beyond_the_services_limit_are_413(app: FastAPI) -> None:
    """`max_body_bytes` (2048 here) for every route; the table passed by the service for its own families."""
    async with client(app) as http:
        fits = await http.post("/echo/x", content=b"a" * 2048)
        too_large = await http.post("/echo/x", content=b"a" * 2049)
        small_family = await http.post("/echo/small", content=b"a" * 1025)
        not_that_family = await http.post("/echo/smaller", content=b"a" * 1025)
    assert fits.status_code == 200 and fits.json()["body"] == "a" * 2048
    assert too_large.status_code == 413
    assert too_large.headers["content-type"] == "application/problem+json"
    assert too_large.json()["code"] == "request_too_large"
    assert too_large.json()["limit"] == 2048
    assert too_large.headers["connection"] == "close"
    assert (small_family.status_code, small_family.json()["limit"]) == (413, 1024)
    assert not_that_family.status_code == 200


def test_the_longest_prefix_decides_and_only_on_segment_boundaries() -> None:
    limits = BodyLimits(100, {"/api/v1": 50, "/api/v1/auth/": 10})
    assert limits.for_path("/api/v1/auth") == 10
    assert limits.for_path("/api/v1/auth/login") == 10
    assert limits.for_path("/api/v1/authors") == 50
    assert limits.for_path("/api/v1") == 50
    assert limits.for_path("/api/v10") == 100
    assert limits.for_path("/healthz") == 100


class Recorder:
    """An ASGI app behind the middleware: what reached it, and what the middleware answered."""

    def __init__(self) -> None:
        self.received: list[bytes] | None = None
        self.sent: list[Message] = []

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.received = []
        while True:
            message = await receive()
            self.received.append(message.get("body", b""))
            if not message.get("more_body"):
                return

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])


def http_scope(headers: list[tuple[bytes, bytes]], path: str = "/upload") -> Scope:
    return {"type": "http", "method": "POST", "path": path, "query_string": b"", "headers": headers}


class Chunks:
    """A client's body arriving in chunks; counts how many the server was asked for."""

    def __init__(self, chunk: bytes, count: int) -> None:
        self.chunk, self.count, self.pulled = chunk, count, 0

    async def __call__(self) -> Message:
        self.pulled += 1
        return {"type": "http.request", "body": self.chunk, "more_body": self.pulled < self.count}


async def test_a_declared_length_over_the_limit_is_refused_before_reading_a_byte() -> None:
    recorder = Recorder()
    body = Chunks(b"x" * 1024, 100 * 1024)  # a 100 MiB upload
    middleware = EdgeMiddleware(recorder.app, BodyLimits(16 * 1024))
    await middleware(http_scope([(b"content-length", str(100 * 1024 * 1024).encode())]), body, recorder.send)
    assert recorder.status == 413
    assert body.pulled == 0
    assert recorder.received is None


async def test_a_chunked_body_is_cut_off_as_soon_as_it_passes_the_limit() -> None:
    recorder = Recorder()
    body = Chunks(b"x" * 1024, 100 * 1024)
    middleware = EdgeMiddleware(recorder.app, BodyLimits(16 * 1024))
    await middleware(http_scope([(b"transfer-encoding", b"chunked")]), body, recorder.send)
    assert recorder.status == 413
    assert body.pulled == 17  # 16 KiB fit; the 17th KiB is one too many, and nothing more is read
    assert recorder.received is None


async def test_a_chunked_body_within_the_limit_reaches_the_app_whole() -> None:
    recorder = Recorder()
    middleware = EdgeMiddleware(recorder.app, BodyLimits(16 * 1024))
    await middleware(http_scope([(b"transfer-encoding", b"chunked")]), Chunks(b"y" * 1000, 16), recorder.send)
    assert recorder.received == [b"y" * 16_000]


async def test_a_websocket_with_control_characters_is_closed_before_the_handshake() -> None:
    recorder = Recorder()
    scope = {"type": "websocket", "path": "/ws", "query_string": b"token=a%00b", "headers": []}

    async def connect() -> Message:
        return {"type": "websocket.connect"}

    await EdgeMiddleware(recorder.app, BodyLimits(1024))(scope, connect, recorder.send)
    assert recorder.sent == [{"type": "websocket.close", "code": 1008, "reason": "control_characters"}]
    assert recorder.received is None
