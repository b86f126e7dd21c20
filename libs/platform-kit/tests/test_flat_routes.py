"""A router served flat is the router included: same URLs, same checks, same OpenAPI document."""

from __future__ import annotations

from typing import Annotated

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, WebSocket
from fastapi.testclient import TestClient
from platform_kit.flat_routes import include_flat
from pydantic import BaseModel
from starlette.testclient import WebSocketDenialResponse


async def require_key(x_key: Annotated[str | None, Header()] = None) -> None:
    if x_key != "open":
        raise HTTPException(status_code=401, detail="no key")


class Deposit(BaseModel):
    amount: int


def accounts_router() -> APIRouter:
    router = APIRouter(
        prefix="/v1/accounts",
        tags=["accounts"],
        dependencies=[Depends(require_key)],
        responses={409: {"description": "a conflict"}},
    )

    @router.post("/{account_id}/deposits", status_code=201)
    async def deposit(account_id: str, body: Deposit) -> dict[str, object]:
        return {"account": account_id, "amount": body.amount}

    @router.get("/{account_id}")
    async def account(account_id: str) -> dict[str, str]:
        return {"account": account_id}

    @router.websocket("/{account_id}/stream")
    async def stream(socket: WebSocket, account_id: str) -> None:
        await socket.accept()
        await socket.send_text(account_id)
        await socket.close()

    return router


def app_with(include: str) -> FastAPI:
    app = FastAPI()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    router = accounts_router()
    if include == "flat":
        include_flat(app, router)
    else:
        app.include_router(router)
    return app


async def answers(app: FastAPI) -> list[tuple[int, object]]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as http:
        calls = [
            http.post("/v1/accounts/a1/deposits", json={"amount": 5}, headers={"X-Key": "open"}),
            http.post("/v1/accounts/a1/deposits", json={"amount": 5}),  # the router's dependency refuses
            http.post("/v1/accounts/a1/deposits", json={"amount": "five"}, headers={"X-Key": "open"}),
            http.get("/v1/accounts/a1", headers={"X-Key": "open"}),
            http.delete("/v1/accounts/a1", headers={"X-Key": "open"}),  # no such method
            http.get("/v1/nowhere"),
            http.get("/healthz"),
        ]
        return [((r := await call).status_code, r.json()) for call in calls]


async def test_a_flat_router_answers_every_request_as_the_included_router_does() -> None:
    flat = await answers(app_with("flat"))
    assert flat == await answers(app_with("included"))
    assert [status for status, _ in flat] == [201, 401, 422, 200, 405, 404, 200]


def test_a_flat_router_has_the_included_routers_openapi_document() -> None:
    flat = app_with("flat").openapi()
    assert flat == app_with("included").openapi()
    operation = flat["paths"]["/v1/accounts/{account_id}/deposits"]["post"]
    assert (operation["tags"], "409" in operation["responses"]) == (["accounts"], True)


def test_a_flat_routers_websocket_route_is_served_behind_the_routers_dependency() -> None:
    client = TestClient(app_with("flat"))
    with client.websocket_connect("/v1/accounts/a7/stream", headers={"X-Key": "open"}) as socket:
        assert socket.receive_text() == "a7"
    with pytest.raises(WebSocketDenialResponse), client.websocket_connect("/v1/accounts/a7/stream"):
        pass


def test_a_router_holding_another_router_is_refused_rather_than_half_flattened() -> None:
    outer = APIRouter(prefix="/v1")
    outer.include_router(accounts_router())
    with pytest.raises(TypeError, match="include_router"):
        include_flat(FastAPI(), outer)


def test_the_routers_routes_come_after_the_apps_own() -> None:
    app = app_with("flat")
    paths = [getattr(route, "path", None) for route in app.router.routes]
    assert paths.index("/healthz") < paths.index("/v1/accounts/{account_id}/deposits")
