"""A partner's side for the webhook tests: a real HTTP server on 127.0.0.1 that verifies each delivery with the
snippet of docs/partners.md, answers errors or stalls on purpose, and deduplicates on `Webhook-Id` as a partner
must."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from platform_kit.testing import eventually
from starlette.requests import Request
from starlette.responses import Response

DOCS = Path(__file__).resolve().parents[3] / "docs" / "partners.md"


def docs_verifier() -> Callable[..., bool]:
    """`verify_webhook` exactly as docs/partners.md prints it."""
    text = DOCS.read_text()
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match, "docs/partners.md has no Python snippet"
    namespace: dict[str, Any] = {}
    exec(compile(match.group(1), str(DOCS), "exec"), namespace)  # our own documentation
    verifier: Callable[..., bool] = namespace["verify_webhook"]
    return verifier


@dataclass
class Arrival:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Receiver:
    """`secrets[path]`: the secret each endpoint path verifies with; `plan`: answers to give, in turn, before
    answering 200 (an int status, or "stall" to answer after the gateway's timeout)."""

    secrets: dict[str, list[str]] = field(default_factory=dict)
    plan: list[int | str] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    processed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # path -> events, once per id
    now: Callable[[], float] = lambda: 0.0
    stall_seconds: float = 1.0
    base_url: str = ""
    verify: Callable[..., bool] = field(default_factory=docs_verifier)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        body = await request.body()
        headers = {name.title(): value for name, value in request.headers.items()}
        secrets = self.secrets.get(request.url.path, [])
        verified = any(self.verify(s, headers, body, now=self.now()) for s in secrets)
        self.arrivals.append(Arrival(request.url.path, headers, body, verified))
        answer: int | str = self.plan.pop(0) if self.plan else 200
        if answer == "stall":
            await asyncio.sleep(self.stall_seconds)
            answer = 200
        if verified and answer == 200:
            seen = self.processed.setdefault(request.url.path, [])
            if headers["Webhook-Id"] not in {event["id"] for event in seen}:
                seen.append(json.loads(body))
        await Response(status_code=int(answer) if verified else 400)(scope, receive, send)

    def events(self, path: str, event_type: str | None = None) -> list[dict[str, Any]]:
        return [e for e in self.processed.get(path, []) if event_type is None or e["type"] == event_type]


def _started(server: uvicorn.Server) -> Callable[[], Awaitable[bool]]:
    async def started() -> bool:
        return bool(server.started)

    return started


@asynccontextmanager
async def serving(receiver: Receiver) -> AsyncIterator[Receiver]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(receiver, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    await eventually(_started(server))
    receiver.base_url = f"http://127.0.0.1:{port}"
    try:
        yield receiver
    finally:
        server.should_exit = True
        await task
