"""The gateway's edge: control characters refused (422) and request bodies bounded (413), on SQLite and PostgreSQL.

The kit's edge middleware does the work (libs/platform-kit/tests/test_edge.py); these tests check the gateway's
own routes with it: a NUL byte that PostgreSQL refuses to store must never reach the database as a 500.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from gateway.adapters.orm import players
from gateway_test_support import PASSWORD, Driver, fast_settings, running
from platform_kit.clock import FrozenClock
from sqlalchemy import func, select

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def backend_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("database_url" if request.param == "sqlite" else "postgres_url")
    return url


@pytest.fixture
async def gateway(backend_url: str, clock: FrozenClock) -> AsyncIterator[Driver]:
    async with running(fast_settings(backend_url), clock) as driver:
        yield driver


async def player_count(driver: Driver) -> int:
    async with driver.services.context.db.sessions() as session:
        return int((await session.execute(select(func.count()).select_from(players))).scalar_one())


async def test_a_nul_in_the_sign_up_email_is_refused_and_nothing_is_written(gateway: Driver) -> None:
    body = {
        "concessionaire": "demo",
        "nickname": "NulEmail",
        "email": "nul\u0000@example.com",
        "date_of_birth": "1990-05-17",
        "password": PASSWORD,
    }
    refused = await gateway.call("POST", "/api/v1/auth/signup", json=body)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "control_characters"
    assert [e["field"] for e in refused.json()["errors"]] == ["body.email"]
    assert await player_count(gateway) == 0


async def test_a_control_character_in_a_log_in_is_refused_before_any_lookup(gateway: Driver) -> None:
    refused = await gateway.call("POST", "/api/v1/auth/login", json={"login": "a\u001bb", "password": PASSWORD})
    assert (refused.status_code, refused.json()["code"]) == (422, "control_characters")


async def test_auth_bodies_are_bounded_at_16_kib(gateway: Driver) -> None:
    """The gateway's override for /api/v1/auth: a log-in never needs more than a few hundred bytes."""
    answer = await gateway.http.post(
        "/api/v1/auth/login",
        content=b'{"login": "' + b"x" * 20_000 + b'", "password": "p"}',
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 413
    assert answer.json()["code"] == "request_too_large"
    assert answer.json()["limit"] == 16 * 1024
