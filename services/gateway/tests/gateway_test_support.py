"""Starting a gateway in tests and driving its API like a client would."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from fastapi import FastAPI
from gateway.app import create_app
from gateway.bootstrap import Services
from gateway.settings import Settings
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events.totalizator import CouponSettled
from platform_kit.testing import running_app

ADMIN_EMAIL = "admin@example.com"
ADMIN_PASSWORD = "admin-test-password"
PASSWORD = "long enough password"


def coupon_settled(
    player_id: str, *, n: int = 0, status: str = "won", amount: int = 1_250, operation: int | None = 31
) -> CouponSettled:
    """A coupon's outcome as the totalizator publishes it (a EUR coupon of 5.00 in draw 2030-23)."""
    return CouponSettled.model_validate(
        {
            "coupon_id": f"C{n:016X}",
            "draw_id": "2030-23",
            "player_id": player_id,
            "status": status,
            "currency": "EUR",
            "stake": 500,
            "amount": amount,
            "wallet_operation_id": operation,
        }
    )


def fast_settings(database_url: str, **overrides: Any) -> Settings:
    """Cheap password hashing and generous rate limits unless a test asks otherwise; no demo bots or credit."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "admin_email": ADMIN_EMAIL,
        "admin_password": ADMIN_PASSWORD,
        "password_hash_time_cost": 1,
        "password_hash_memory_kib": 64,
        "rate_limit_per_second": 1000.0,
        "rate_limit_burst": 1000,
        "anonymous_rate_limit_per_second": 1000.0,
        "anonymous_rate_limit_burst": 1000,
        "demo_bots": False,
        "demo_welcome_credit_cents": 0,
        **overrides,
    }
    return Settings.model_validate(values)


@dataclass
class Driver:
    """A started gateway app with an HTTP client, plus shortcuts for the common set-up steps."""

    app: FastAPI
    http: httpx.AsyncClient
    bus: InMemoryBus

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services

    async def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        api_key: str | None = None,
        json: Any = None,
        params: Any = None,
        expect: int | None = None,
        key: str | None = None,
    ) -> httpx.Response:
        """`key`: the Idempotency-Key of a money move."""
        headers = {"Idempotency-Key": key} if key else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if api_key:
            headers["X-API-Key"] = api_key
        response = await self.http.request(method, path, headers=headers, json=json, params=params)
        if expect is not None:
            assert response.status_code == expect, response.text
        return response

    async def admin_token(self) -> str:
        answer = await self.call(
            "POST", "/api/v1/auth/staff/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}, expect=200
        )
        return str(answer.json()["access_token"])

    async def sign_up(
        self, nickname: str, *, concessionaire: str = "demo", date_of_birth: str = "1990-05-17", expect: int = 201
    ) -> httpx.Response:
        body = {
            "concessionaire": concessionaire,
            "nickname": nickname,
            "email": f"{nickname.lower()}@example.com",
            "date_of_birth": date_of_birth,
            "password": PASSWORD,
        }
        return await self.call("POST", "/api/v1/auth/signup", json=body, expect=expect)

    async def player_session(self, nickname: str, **options: Any) -> dict[str, Any]:
        answer: dict[str, Any] = (await self.sign_up(nickname, **options)).json()
        return answer

    async def concessionaire(self, code: str) -> str:
        answer = await self.call(
            "POST",
            "/api/v1/concessionaires",
            token=await self.admin_token(),
            json={"code": code, "name": code.title()},
            expect=201,
        )
        return str(answer.json()["id"])

    async def operator_token(self, concessionaire_id: str, email: str) -> str:
        await self.call(
            "POST",
            f"/api/v1/concessionaires/{concessionaire_id}/operators",
            token=await self.admin_token(),
            json={"email": email, "password": PASSWORD},
            expect=201,
        )
        answer = await self.call(
            "POST", "/api/v1/auth/staff/login", json={"email": email, "password": PASSWORD}, expect=200
        )
        return str(answer.json()["access_token"])

    async def api_key(self, concessionaire_id: str, operator_token: str, label: str = "partner") -> str:
        answer = await self.call(
            "POST",
            f"/api/v1/concessionaires/{concessionaire_id}/api-keys",
            token=operator_token,
            json={"label": label},
            expect=201,
        )
        return str(answer.json()["key"])


@asynccontextmanager
async def running(
    settings: Settings, clock: FrozenClock, services: httpx.AsyncBaseTransport | None = None
) -> AsyncIterator[Driver]:
    """`services`: the other services' fakes (`FakeServices().transport()`); without it they are unreachable."""
    bus = InMemoryBus()
    app = create_app(settings, bus=bus, clock=clock, services_transport=services)
    async with running_app(app, "http://gateway.test") as http:
        yield Driver(app, http, bus)
