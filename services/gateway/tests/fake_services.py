"""The platform's other services, faked behind an httpx transport: each answers the routes a test scripts and
records every request, so a test sees exactly what the gateway sent (path, headers, body)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from platform_kit.settings import SERVICE_PORTS

SERVICE_OF_PORT = {port: service for service, port in SERVICE_PORTS.items()}
Answer = httpx.Response | Callable[[httpx.Request], httpx.Response]


def ok(body: Any, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers)


def problem(status: int, code: str, **details: Any) -> httpx.Response:
    body = {"type": f"urn:problem:{code}", "title": code, "status": status, "code": code, **details}
    return httpx.Response(status, content=json.dumps(body), headers={"content-type": "application/problem+json"})


@dataclass
class Call:
    service: str
    method: str
    path: str
    params: dict[str, list[str]]
    headers: httpx.Headers
    body: Any

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


@dataclass
class FakeServices:
    routes: list[tuple[str, str, re.Pattern[str], Answer]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    def on(self, service: str, method: str, path: str, answer: Answer) -> None:
        """`path` is a regular expression matched against the whole path; the latest matching route wins."""
        self.routes.insert(0, (service, method, re.compile(path), answer))

    def to(self, service: str) -> list[Call]:
        return [call for call in self.calls if call.service == service]

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        service = SERVICE_OF_PORT.get(request.url.port or 0, "unknown")
        body = json.loads(request.content) if request.content else None
        params: dict[str, list[str]] = {}
        for name, value in request.url.params.multi_items():
            params.setdefault(name, []).append(value)
        self.calls.append(Call(service, request.method, request.url.path, params, request.headers, body))
        for wanted, method, pattern, answer in self.routes:
            if wanted == service and method == request.method and pattern.fullmatch(request.url.path):
                return answer(request) if callable(answer) else answer
        return problem(404, "not_found")
