"""The kit's request-header dependencies, on a service app that is not started (none of them needs the
database or the bus): the internal token, the Idempotency-Key with its one rule and codes, the principal the
gateway passes on, and the answer to a keyed request."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import JSONResponse
from messaging_fixture import metadata
from platform_kit.app import create_service_app
from platform_kit.bus import InMemoryBus
from platform_kit.idempotency import (
    MAX_KEY_LENGTH,
    MAX_SERVICE_KEY_LENGTH,
    IdempotencyKey,
    OptionalIdempotencyKey,
    ServiceIdempotencyKey,
    keyed_answer,
)
from platform_kit.internal_api import PrincipalHeadersDep, require_internal_token
from platform_kit.runtime import ServiceRuntime
from platform_kit.settings import ServiceSettings, service_config

TOKEN = "a-token-of-this-deployment"


class DemoSettings(ServiceSettings):
    model_config = service_config("demo")
    service_name: str = "demo"


class Role(StrEnum):
    PLAYER = "player"
    OPERATOR = "operator"


router = APIRouter()
internal = APIRouter(prefix="/internal", dependencies=[Depends(require_internal_token)])


@internal.get("/ping")
async def ping() -> dict[str, str]:
    return {"pong": "yes"}


@router.post("/required")
async def required(key: IdempotencyKey) -> dict[str, str]:
    return {"key": key}


@router.post("/optional")
async def optional(key: OptionalIdempotencyKey) -> dict[str, str | None]:
    return {"key": key}


@router.post("/service")
async def service(key: ServiceIdempotencyKey) -> dict[str, str]:
    return {"key": key}


@router.get("/whoami")
async def whoami(caller: PrincipalHeadersDep) -> dict[str, Any]:
    role, subject_id, concessionaire_id = caller.authenticated(Role, concessionaire_for={Role.OPERATOR})
    return {"role": role.value, "subject_id": subject_id, "concessionaire_id": concessionaire_id}


@router.get("/keyed/{status}")
async def keyed(status: int, replayed: bool) -> JSONResponse:
    return keyed_answer(status, {"status": status}, replayed=replayed)


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    settings = DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/demo.db", internal_token=TOKEN)
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=InMemoryBus())
    return create_service_app(runtime, title="Demo", description="headers", routers=[router, internal])


@pytest.fixture
async def http(app: FastAPI) -> Any:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://demo") as client:
        yield client


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert response.headers["content-type"] == "application/problem+json"


async def test_an_internal_route_admits_the_runtimes_token_only(http: httpx.AsyncClient) -> None:
    assert (await http.get("/internal/ping", headers={"X-Internal-Token": TOKEN})).json() == {"pong": "yes"}
    refused(await http.get("/internal/ping"), 401, "unauthorized")
    refused(await http.get("/internal/ping", headers={"X-Internal-Token": TOKEN[:-1]}), 401, "unauthorized")
    refused(await http.get("/internal/ping", headers={"X-Internal-Token": ""}), 401, "unauthorized")
    # Not ASCII: compared as bytes, refused like any other wrong token (never a 500).
    refused(await http.get("/internal/ping", headers={"X-Internal-Token": "tökén".encode()}), 401, "unauthorized")


async def test_a_required_key_has_1_to_100_printable_ascii_characters(http: httpx.AsyncClient) -> None:
    longest = "k" * MAX_KEY_LENGTH
    assert MAX_KEY_LENGTH == 100
    assert (await http.post("/required", headers={"Idempotency-Key": longest})).json() == {"key": longest}
    assert (await http.post("/required", headers={"Idempotency-Key": "a b:1/2"})).json() == {"key": "a b:1/2"}
    refused(await http.post("/required"), 400, "idempotency_key_required")
    refused(await http.post("/required", headers={"Idempotency-Key": ""}), 400, "idempotency_key_required")
    refused(await http.post("/required", headers={"Idempotency-Key": longest + "k"}), 400, "idempotency_key_invalid")
    not_ascii = {"Idempotency-Key": "clé".encode()}
    refused(await http.post("/required", headers=not_ascii), 400, "idempotency_key_invalid")


async def test_an_optional_key_may_be_absent_but_a_present_one_is_checked(http: httpx.AsyncClient) -> None:
    assert (await http.post("/optional")).json() == {"key": None}
    assert (await http.post("/optional", headers={"Idempotency-Key": "k-1"})).json() == {"key": "k-1"}
    refused(await http.post("/optional", headers={"Idempotency-Key": ""}), 400, "idempotency_key_invalid")
    too_long = {"Idempotency-Key": "k" * (MAX_KEY_LENGTH + 1)}
    refused(await http.post("/optional", headers=too_long), 400, "idempotency_key_invalid")


async def test_a_services_own_key_may_wrap_a_callers_key_with_the_same_rules(http: httpx.AsyncClient) -> None:
    wrapped = f"totalizator:stake:{'p' * 36}:{'k' * MAX_KEY_LENGTH}"
    assert len(wrapped) <= MAX_SERVICE_KEY_LENGTH
    assert (await http.post("/service", headers={"Idempotency-Key": wrapped})).json() == {"key": wrapped}
    refused(await http.post("/service"), 400, "idempotency_key_required")
    too_long = {"Idempotency-Key": "k" * (MAX_SERVICE_KEY_LENGTH + 1)}
    refused(await http.post("/service", headers=too_long), 400, "idempotency_key_invalid")


async def test_the_principal_is_the_role_id_and_concessionaire_the_gateway_sent(http: httpx.AsyncClient) -> None:
    operator = {"X-Principal-Role": "operator", "X-Principal-Id": "op-1", "X-Concessionaire-Id": "room-a"}
    assert (await http.get("/whoami", headers=operator)).json() == {
        "role": "operator",
        "subject_id": "op-1",
        "concessionaire_id": "room-a",
    }
    player = {"X-Principal-Role": "player", "X-Principal-Id": "p-1"}
    assert (await http.get("/whoami", headers=player)).json()["concessionaire_id"] is None
    refused(await http.get("/whoami"), 401, "principal_missing")
    refused(await http.get("/whoami", headers={"X-Principal-Role": "player"}), 401, "principal_missing")
    refused(await http.get("/whoami", headers={**operator, "X-Concessionaire-Id": ""}), 401, "principal_missing")
    refused(await http.get("/whoami", headers={**player, "X-Principal-Role": "admin"}), 403, "forbidden")


async def test_a_replayed_answer_is_marked_and_a_refusal_stays_a_problem(http: httpx.AsyncClient) -> None:
    first = await http.get("/keyed/201", params={"replayed": False})
    assert (first.status_code, first.json()) == (201, {"status": 201})
    assert "idempotent-replayed" not in first.headers
    again = await http.get("/keyed/201", params={"replayed": True})
    assert (again.status_code, again.headers["idempotent-replayed"]) == (201, "true")
    assert again.headers["content-type"] == "application/json"
    refusal = await http.get("/keyed/409", params={"replayed": True})
    assert (refusal.status_code, refusal.headers["content-type"]) == (409, "application/problem+json")
