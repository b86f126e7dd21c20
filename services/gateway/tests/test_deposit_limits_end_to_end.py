"""Deposit limits through the gateway against the real wallet (issue 17, docs/player-protection.md): the player
sets them, the concessionaire's partner system deposits, and the wallet refuses past a limit with 422
`deposit_limit_exceeded` and the remaining amount; a raise waits for the cooling-off; replays count once; the
history shows who changed what, and another concessionaire sees none of it."""

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_services import FakeServices
from gateway_test_support import PASSWORD, Driver, fast_settings, running
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.settings import SERVICE_PORTS
from platform_kit.testing import running_app
from test_access import two_concessionaires
from wallet.app import create_app as wallet_app
from wallet.settings import Settings as WalletSettings


class WalletThenFakes(httpx.AsyncBaseTransport):
    """The real wallet app for the wallet's port, the scripted fakes for every other service."""

    def __init__(self, wallet: httpx.AsyncBaseTransport, fakes: httpx.AsyncBaseTransport) -> None:
        self._wallet = wallet
        self._fakes = fakes

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.port == SERVICE_PORTS["wallet"]:
            return await self._wallet.handle_async_request(request)
        return await self._fakes.handle_async_request(request)


@pytest.fixture
async def platform(database_url: str, clock: FrozenClock, tmp_path: Path) -> AsyncIterator[Driver]:
    wallet = wallet_app(
        WalletSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/wallet.db"), bus=InMemoryBus(), clock=clock
    )
    async with running_app(wallet, "http://wallet.test"):
        transport = WalletThenFakes(httpx.ASGITransport(app=wallet), FakeServices().transport())
        async with running(fast_settings(database_url, migrate_on_start=False), clock, transport) as driver:
            yield driver


async def deposit(driver: Driver, partner: str, player_id: str, amount: int, key: str) -> httpx.Response:
    return await driver.call(
        "POST",
        f"/api/v1/players/{player_id}/deposits",
        api_key=partner,
        json={"currency": "EUR", "amount": amount},
        key=key,
    )


async def staff_token(driver: Driver, email: str) -> str:
    login = {"email": email, "password": PASSWORD}
    answer = await driver.call("POST", "/api/v1/auth/staff/login", json=login, expect=200)
    return str(answer.json()["access_token"])


async def set_limits(driver: Driver, token: str, player_id: str, **windows: Any) -> dict[str, Any]:
    path = f"/api/v1/players/{player_id}/protection/deposit-limits"
    answer = await driver.call("PUT", path, token=token, json={"currency": "EUR", **windows}, expect=200)
    [eur] = answer.json()["limits"]
    return {w["period"]: w for w in eur["windows"]}


async def test_partner_deposits_are_refused_over_the_players_limit_and_raises_wait(
    platform: Driver, clock: FrozenClock
) -> None:
    world = await two_concessionaires(platform)
    a = world["a"]
    player_id, partner = a["player"]["id"], a["key"]
    login = {"login": "PlayerA", "password": PASSWORD}
    token = (await platform.call("POST", "/api/v1/auth/login", json=login, expect=200)).json()["access_token"]
    await set_limits(platform, token, player_id, day=10_000)

    first = await deposit(platform, partner, player_id, 6_000, "d1")
    replay = await deposit(platform, partner, player_id, 6_000, "d1")
    assert first.status_code == replay.status_code == 201
    assert replay.json() == first.json()  # the same deposit, answered again: counted once below
    refused = await deposit(platform, partner, player_id, 4_001, "d2")
    assert refused.status_code == 422
    assert (refused.json()["code"], refused.json()["remaining"]) == ("deposit_limit_exceeded", 4_000)

    windows = await set_limits(platform, token, player_id, day=20_000)
    assert (windows["day"]["amount"], windows["day"]["pending_amount"]) == (10_000, 20_000)
    assert (await deposit(platform, partner, player_id, 4_001, "d3")).status_code == 422
    clock.advance(timedelta(hours=24))
    token = (await platform.call("POST", "/api/v1/auth/login", json=login, expect=200)).json()["access_token"]
    assert (await deposit(platform, partner, player_id, 14_000, "d4")).status_code == 201

    history = f"/api/v1/players/{player_id}/protection/history"
    operator_a, operator_b = [await staff_token(platform, f"op@{room}.example") for room in ("a", "b")]
    for reader in (token, operator_a):
        changes = (await platform.call("GET", history, token=reader, expect=200)).json()["changes"]
        assert [(c["setting"], c["value"], c["changed_by"]) for c in changes] == [
            ("deposit_limit", "20000", f"player:{player_id}"),
            ("deposit_limit", "10000", f"player:{player_id}"),
        ]
    assert (await platform.call("GET", history, token=operator_b)).status_code == 404
