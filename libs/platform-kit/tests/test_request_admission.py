"""Request admission at the edge (issue 14, overload degrades): past the bound an API request is answered 503 with
its code and Retry-After before its body is read or its route run; health, metrics, paths outside the bound and
WebSocket handshakes pass; a place is given back when a request's answer is sent, also when its route failed.
(Waiting for a place is the admission's own, tested in test_admission.py.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from platform_kit.admission import Admission
from platform_kit.app import QUIET_PATHS
from platform_kit.request_admission import RequestAdmission, RequestAdmissionMiddleware
from starlette.types import Receive, Scope, Send


class Routes:
    """An ASGI app whose `/api/slow` answers once released; every route records that it ran and what it read."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.slow_started = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        body = (await receive()).get("body", b"")
        self.ran.append(f"{path} {body.decode()}".strip())
        if path == "/api/slow":
            self.slow_started.set()
            await self.release.wait()
        if path == "/api/fails":
            raise RuntimeError("the route failed")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def bounded(routes: Routes, admission: Admission) -> httpx.AsyncClient:
    app = RequestAdmissionMiddleware(routes, RequestAdmission(admission, under="/api/"), exempt=QUIET_PATHS)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway")


async def test_one_past_the_bound_is_refused_with_retry_after_unread_and_unrun() -> None:
    routes = Routes()
    async with bounded(routes, Admission(1, "gateway_busy", "The platform is busy.")) as http:
        slow = asyncio.create_task(http.get("/api/slow"))
        await routes.slow_started.wait()

        refused = await http.post("/api/coupons", content=b"a coupon")

        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "1"
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "gateway_busy"
        assert routes.ran == ["/api/slow"]  # the refused request's route never ran, its body never read

        # Not bounded: health, metrics, the web client's files (outside `/api/`).
        for path in ("/healthz", "/metrics", "/index.html"):
            assert (await http.get(path)).status_code == 200
        routes.release.set()
        assert (await slow).status_code == 200
        assert (await http.post("/api/coupons", content=b"again")).status_code == 200
    assert routes.ran[-1] == "/api/coupons again"


async def test_a_place_is_given_back_when_the_route_fails() -> None:
    routes = Routes()
    admission = Admission(1, "gateway_busy", "Busy.")
    async with bounded(routes, admission) as http:
        with pytest.raises(RuntimeError):
            await http.get("/api/fails")
        assert admission.in_flight == 0
        assert (await http.get("/api/next")).status_code == 200


async def test_a_websocket_handshake_is_not_bounded() -> None:
    seen: list[str] = []

    async def sockets(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope["type"])

    admission = Admission(1, "gateway_busy", "Busy.")
    app = RequestAdmissionMiddleware(sockets, RequestAdmission(admission, under="/api/"), exempt=QUIET_PATHS)
    async with admission.admit():  # the one place is taken
        await app({"type": "websocket", "path": "/api/v1/ws"}, _never, _never)
    assert seen == ["websocket"]


async def _never(*_: object) -> dict[str, object]:
    raise AssertionError("not called")
