"""The totalizator app wired to the REAL wallet app, both in-process (ASGI), driven through their REST APIs.

The wallet is not faked: coupons' stakes, payouts, refunds and the organizer's transfers go through its
internal API (services/wallet/src/wallet/api/internal.py), so the contract between the two is exercised.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.internal_client import InternalClient
from platform_kit.runtime import ServiceRuntime
from platform_kit.testing import running_app
from sqlalchemy import func, select
from totalizator.adapters import transfers
from totalizator.adapters.orm import metadata
from totalizator.adapters.wallet_client import HttpWallet
from totalizator.app import create_app
from totalizator.bootstrap import Services
from totalizator.domain import standard_options
from totalizator.service.staff import Staff, StaffRole
from totalizator.service.wallet import WalletPort
from totalizator.settings import Settings
from wallet.app import create_app as create_wallet_app
from wallet.settings import Settings as WalletSettings

TOKEN = "dev-internal-token"
NOW = datetime(2030, 6, 1, 12, 0, tzinfo=UTC)
CLOSE_AT = NOW + timedelta(days=2)
ADULT = date(1990, 5, 17)
STAFF = {"X-Internal-Token": TOKEN, "X-Principal-Role": "admin", "X-Principal-Id": "admin-7"}
OPERATOR = {"X-Internal-Token": TOKEN, "X-Principal-Role": "operator", "X-Principal-Id": "op-7"}
CONCESSIONAIRE = "c1"
CURRENCIES = [
    {"currency": "USD", "min_stake": "0.10", "usd_rate": "1"},
    {"currency": "EUR", "min_stake": "0.10", "usd_rate": "1.0843"},
    {"currency": "JPY", "min_stake": "15", "usd_rate": "0.0067"},
]


def draw_body(
    draw_id: str = "2030-23", *, topup: str = "0", reason: str | None = None, close_at: datetime = CLOSE_AT
) -> dict[str, Any]:
    return {
        "draw_id": draw_id,
        "close_at": close_at.isoformat(),
        "matches": [
            {
                "competition": "League",
                "home": f"Home {no}",
                "away": f"Away {no}",
                "kickoff": (close_at + timedelta(hours=no)).isoformat(),
            }
            for no in range(1, 9)
        ],
        "currencies": CURRENCIES,
        "jackpot_topup_usd": topup,
        "topup_reason": reason,
    }


def picks(*per_match: str | Sequence[str]) -> list[list[str]]:
    """Picks for 8 matches: each a label or a list of labels; missing matches pick "0:0"."""
    chosen = [[p] if isinstance(p, str) else list(p) for p in per_match]
    return chosen + [["0:0"]] * (8 - len(chosen))


OPTIONS = standard_options()


@dataclass
class Platform:
    app: FastAPI
    http: httpx.AsyncClient  # to the totalizator
    wallet_http: httpx.AsyncClient  # to the wallet, for setting players up and checking balances
    clock: FrozenClock
    bus: InMemoryBus

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services

    @property
    def runtime(self) -> ServiceRuntime:
        runtime: ServiceRuntime = self.app.state.runtime
        return runtime

    # -- staff ----------------------------------------------------------------------------------------------
    async def staff(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return await self.http.request(method, f"/internal/v1{path}", json=body, headers=STAFF)

    async def open_draw(self, draw_id: str = "2030-23", **options: Any) -> dict[str, Any]:
        created = await self.staff("POST", "/draws", draw_body(draw_id, **options))
        assert created.status_code == 201, created.text
        announced = await self.staff("POST", f"/draws/{draw_id}/announce")
        assert announced.status_code == 200, announced.text
        body: dict[str, Any] = announced.json()
        return body

    async def close(self, draw_id: str = "2030-23") -> None:
        self.clock.set(CLOSE_AT)
        await self.services.clock.tick()
        draw = (await self.staff("GET", f"/draws/{draw_id}")).json()
        assert draw["status"] == "closed" and draw["final"] is not None, draw

    async def results(self, draw_id: str, scores: Sequence[tuple[int, int] | None]) -> None:
        """Enter scores through the use case (the route is tested on its own; eight calls add up)."""
        for no, score in enumerate(scores, start=1):
            if score is not None:
                await self.services.admin.enter_result(draw_id, no, *score, None, Staff(StaffRole.OPERATOR, "op-7"))

    # -- players --------------------------------------------------------------------------------------------
    async def coupon(
        self,
        player: str,
        chosen: list[list[str]],
        amount: int,
        *,
        currency: str = "USD",
        draw_id: str = "2030-23",
        key: str | None = None,
        birth_date: date = ADULT,
    ) -> httpx.Response:
        body = {
            "player_id": player,
            "birth_date": birth_date.isoformat(),
            "currency": currency,
            "amount": amount,
            "picks": chosen,
        }
        headers = {"X-Internal-Token": TOKEN, "Idempotency-Key": key or uuid.uuid4().hex}
        return await self.http.post(f"/internal/v1/draws/{draw_id}/coupons", json=body, headers=headers)

    async def fund(self, player: str, amount: int, currency: str = "USD") -> None:
        """Open the player's account in `currency` with its concessionaire and deposit `amount`."""
        partner = {"X-Internal-Token": TOKEN, "X-Concessionaire-Id": CONCESSIONAIRE}
        for path, body in [
            (f"/internal/v1/partner/players/{player}/accounts", {"currency": currency}),
            (f"/internal/v1/partner/players/{player}/deposits", {"currency": currency, "amount": amount}),
        ]:
            response = await self.wallet_http.post(
                path, json=body, headers={**partner, "Idempotency-Key": uuid.uuid4().hex}
            )
            assert response.status_code == 201, response.text

    async def balance(self, player: str, currency: str = "USD") -> int:
        response = await self.wallet_http.get(
            f"/internal/v1/players/{player}/accounts", headers={"X-Internal-Token": TOKEN}
        )
        assert response.status_code == 200, response.text
        (account,) = [a for a in response.json()["accounts"] if a["currency"] == currency]
        return int(account["balance"])

    async def pools(self, draw_id: str = "2030-23") -> dict[str, int]:
        response = await self.wallet_http.get(f"/internal/v1/draws/{draw_id}", headers={"X-Internal-Token": TOKEN})
        assert response.status_code == 200, response.text
        return {pool["currency"]: int(pool["balance"]) for pool in response.json()["pools"]}

    async def wallet_statement(self, player: str, currency: str = "USD") -> list[dict[str, Any]]:
        accounts = (
            await self.wallet_http.get(f"/internal/v1/players/{player}/accounts", headers={"X-Internal-Token": TOKEN})
        ).json()["accounts"]
        (account,) = [a for a in accounts if a["currency"] == currency]
        response = await self.wallet_http.get(
            f"/internal/v1/accounts/{account['id']}/statement", headers={"X-Internal-Token": TOKEN}
        )
        items: list[dict[str, Any]] = response.json()["items"]
        return items

    async def reconciled(self) -> bool:
        response = await self.wallet_http.get("/internal/v1/reconciliation", headers={"X-Internal-Token": TOKEN})
        return bool(response.json()["ok"])

    # -- events ---------------------------------------------------------------------------------------------
    async def events(self, event_type: str) -> list[dict[str, Any]]:
        """Payloads published so far of one type (after pushing the outbox)."""
        await self.runtime.relay.flush()
        return [envelope.payload for key, envelope in self.bus.published if key == event_type]

    async def outbox_rows(self, event_type: str) -> int:
        """Rows written for `event_type`, whichever instance's relay publishes them: what "exactly once" counts."""
        outbox = metadata.tables["outbox"]
        async with self.runtime.db.sessions() as session:
            query = select(func.count()).select_from(outbox).where(outbox.c.event_type == event_type)
            return int(await session.scalar(query) or 0)


def settings(url: str, **overrides: Any) -> Settings:
    # The draw clock is driven by the tests (tick()), not by time passing.
    # No draw of the schedule unless a test asks: each test counts its own draws.
    values: dict[str, Any] = {"tick_interval_seconds": 3600.0, "stake_retry_seconds": 0.0, "keep_draw_open": False}
    return Settings(database_url=url, **(values | overrides))


@asynccontextmanager
async def running_wallet(url: str, *, migrate: bool = True) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The real wallet started, and a client to it for the tests' own calls."""
    app = create_wallet_app(
        WalletSettings(
            database_url=url,
            migrate_on_start=migrate,
            reconciliation_interval_seconds=3600.0,
            hold_sweep_interval_seconds=3600.0,
        ),
        bus=InMemoryBus(),
    )
    async with running_app(app, "http://wallet") as http:
        yield app, http


@asynccontextmanager
async def another_instance(platform: Platform, *, wallet: WalletPort | None = None) -> AsyncIterator[Services]:
    """A second instance of the service on the same database, with its own connections and no memory of the
    first: a replica, or the service restarted after a crash. Same clock; the same wallet unless given."""
    context = platform.services.context
    app = create_app(
        settings(str(platform.runtime.db.url), migrate_on_start=False),
        bus=InMemoryBus(),
        clock=platform.clock,
        wallet=wallet or context.wallet,
        wallet_client=context.calls.clients[transfers.WALLET],
    )
    async with app.router.lifespan_context(app):
        yield app.state.services


# Puts something between the totalizator's wallet client and the wallet app (to record calls, lose answers).
TransportWrapper = Callable[[httpx.AsyncBaseTransport], httpx.AsyncBaseTransport]


def wallet_client(wallet_app: FastAPI, wrap_transport: TransportWrapper | None = None) -> InternalClient:
    transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=wallet_app)
    if wrap_transport is not None:
        transport = wrap_transport(transport)
    return InternalClient("http://wallet", TOKEN, transport=transport)


@asynccontextmanager
async def running(
    totalizator_url: str,
    wallet_url: str,
    *,
    wrap_wallet: Any = None,
    wrap_transport: TransportWrapper | None = None,
    migrate: bool = True,
    **overrides: Any,
) -> AsyncIterator[Platform]:
    """Both services up; `wrap_wallet(port) -> port` lets a test put a fault injector in between, and
    `wrap_transport` one under the wallet client's HTTP. `migrate=False` when the databases are already at the
    latest migration."""
    clock = FrozenClock(NOW)
    bus = InMemoryBus()
    overrides.setdefault("migrate_on_start", migrate)
    async with running_wallet(wallet_url, migrate=migrate) as (wallet_app, wallet_http):
        client = wallet_client(wallet_app, wrap_transport)
        port: WalletPort = HttpWallet(client)
        if wrap_wallet is not None:
            port = wrap_wallet(port)
        app = create_app(
            settings(totalizator_url, **overrides),
            bus=bus,
            clock=clock,
            wallet=port,
            rng=random.Random(7),
            wallet_client=client,
        )
        async with running_app(app, "http://totalizator") as http:
            yield Platform(app, http, wallet_http, clock, bus)


# What the `start_platform` fixture returns: starts a platform with the given options, as a context manager.
PlatformFactory = Callable[..., AbstractAsyncContextManager[Platform]]
