"""The app factory every service uses, on SQLite and the in-memory bus."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import APIRouter, FastAPI, Request
from messaging_fixture import CreditGranted, apply_credit, create_schema, credited, metadata
from platform_kit.app import create_service_app, runtime_of
from platform_kit.bus import InMemoryBus
from platform_kit.errors import Conflict
from platform_kit.logging import JsonFormatter
from platform_kit.runtime import ServiceRuntime
from platform_kit.settings import ServiceSettings, service_config
from platform_kit.testing import eventually


class DemoSettings(ServiceSettings):
    model_config = service_config("demo")
    service_name: str = "demo"


router = APIRouter()


@router.post("/credits/{account}/{amount}")
async def grant(account: str, amount: int, request: Request) -> dict[str, str]:
    runtime = runtime_of(request)
    async with runtime.db.transaction() as session:
        envelope = await runtime.outbox.add(session, CreditGranted(account=account, amount=amount))
    return {"event_id": envelope.id}


@router.get("/refuse")
async def refuse() -> None:
    raise Conflict("already_done", "This was already done.", hint="look elsewhere")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[FastAPI, InMemoryBus]]:
    bus = InMemoryBus()
    settings = DemoSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/demo.db", migrate_on_start=False)
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=bus)
    await create_schema(runtime.db)
    runtime.on(CreditGranted.TYPE, apply_credit)
    application = create_service_app(runtime, title="Demo", description="A demo service", routers=[router])
    async with application.router.lifespan_context(application):
        yield application, bus
    await bus.close()


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://demo")


async def test_health_and_readiness(app: tuple[FastAPI, InMemoryBus]) -> None:
    async with client(app[0]) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok", "service": "demo"}
        ready = await http.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {"database": True, "bus": True}


async def test_readiness_fails_when_the_database_is_unreachable(tmp_path: Path) -> None:
    settings = DemoSettings(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none", migrate_on_start=False)
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=tmp_path, bus=InMemoryBus())
    application = create_service_app(runtime, title="Demo", description="down")
    async with client(application) as http:
        response = await http.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] is False


async def test_metrics_count_requests_by_route_template_and_status(app: tuple[FastAPI, InMemoryBus]) -> None:
    async with client(app[0]) as http:
        await http.post("/credits/a/1")
        await http.post("/credits/b/2")
        await http.post("/credits/c/not-a-number")
        for _ in range(3):
            await http.get("/refuse")
        text = (await http.get("/metrics")).text
    route = 'method="POST",route="/credits/{account}/{amount}",service="demo"'
    assert f'http_requests_total{{{route},status="200"}} 2.0' in text
    assert f'http_requests_total{{{route},status="422"}} 1.0' in text
    assert 'http_requests_total{method="GET",route="/refuse",service="demo",status="409"} 3.0' in text
    assert f"http_request_duration_seconds_count{{{route}}} 3.0" in text
    assert "http_request_duration_seconds_bucket" in text
    assert "outbox_backlog" in text


async def test_correlation_id_flows_from_request_into_published_event(
    app: tuple[FastAPI, InMemoryBus],
) -> None:
    application, bus = app
    async with client(application) as http:
        response = await http.post("/credits/zoe/4", headers={"X-Request-ID": "req-42"})
    assert response.headers["x-request-id"] == "req-42"
    runtime: ServiceRuntime = application.state.runtime
    await eventually(lambda: _credited_is(runtime, "zoe", (1, 4)))
    ((key, envelope),) = [item for item in bus.published if item[1].type == CreditGranted.TYPE]
    assert key == "test.credit.granted"
    assert envelope.correlation_id == "req-42"
    assert envelope.producer == "demo"
    assert envelope.id == response.json()["event_id"]


async def test_each_answer_is_logged_once_with_its_status_and_probes_are_not(
    app: tuple[FastAPI, InMemoryBus], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="platform.access")
    async with client(app[0]) as http:
        await http.get("/refuse", headers={"X-Request-ID": "req-7"})
        await http.get("/healthz")
    logged = [record for record in caplog.records if record.name == "platform.access"]
    assert [(r.method, r.path, r.status) for r in logged] == [("GET", "/refuse", 409)]  # type: ignore[attr-defined]


async def test_errors_are_problem_json_with_a_stable_code(app: tuple[FastAPI, InMemoryBus]) -> None:
    async with client(app[0]) as http:
        refused = await http.get("/refuse")
        invalid = await http.post("/credits/a/not-a-number")
    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json() == {
        "type": "urn:problem:already_done",
        "title": "This was already done.",
        "status": 409,
        "code": "already_done",
        "hint": "look elsewhere",
    }
    assert invalid.status_code == 422
    assert invalid.json()["code"] == "validation_failed"
    assert invalid.json()["errors"][0]["field"] == "path.amount"


def test_json_log_lines_carry_service_and_extras() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello %s", ("world",), None)
    record.table_id = "t-1"
    line = json.loads(JsonFormatter("demo").format(record))
    assert line["message"] == "hello world"
    assert line["service"] == "demo"
    assert line["table_id"] == "t-1"
    assert line["level"] == "info"


def test_settings_come_from_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEMO_BUS_URL", "amqp://guest:guest@rabbit:5672/")
    monkeypatch.setenv("DEMO_PORT", "9100")
    settings = DemoSettings()
    assert settings.bus_url == "amqp://guest:guest@rabbit:5672/"
    assert settings.port == 9100
    assert settings.database_url == "sqlite+aiosqlite:///data/demo.db"


async def _credited_is(runtime: ServiceRuntime, account: str, expected: tuple[int, int]) -> bool:
    return await credited(runtime.db, account) == expected
