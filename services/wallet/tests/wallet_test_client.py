"""Drives the wallet through its REST API, in-process (ASGI) or against a real server process."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI
from platform_kit.bus import InMemoryBus
from platform_kit.clock import Clock
from platform_kit.testing import running_app
from wallet.app import create_app
from wallet.settings import Settings

TOKEN = "dev-internal-token"


class WalletApi:
    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def command(
        self,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        key: str | None = None,
        concessionaire: str | None = None,
    ) -> httpx.Response:
        headers = {"X-Internal-Token": TOKEN, "Idempotency-Key": key or uuid.uuid4().hex}
        if concessionaire is not None:
            headers["X-Concessionaire-Id"] = concessionaire
        return await self.http.post(path, json=body or {}, headers=headers)

    async def get(self, path: str, *, concessionaire: str | None = None, **params: Any) -> httpx.Response:
        headers = {"X-Internal-Token": TOKEN}
        if concessionaire is not None:
            headers["X-Concessionaire-Id"] = concessionaire
        return await self.http.get(path, params={k: v for k, v in params.items() if v is not None}, headers=headers)

    # -- shortcuts ----------------------------------------------------------------------------------------------
    async def open_player(self, player: str, concessionaire: str, currency: str = "EUR") -> dict[str, Any]:
        response = await self.command(
            f"/internal/v1/partner/players/{player}/accounts", {"currency": currency}, concessionaire=concessionaire
        )
        assert response.status_code == 201, response.text
        return response.json()

    async def deposit(
        self, concessionaire: str, player: str, amount: int, currency: str = "EUR", *, key: str | None = None
    ) -> httpx.Response:
        return await self.command(
            f"/internal/v1/partner/players/{player}/deposits",
            {"currency": currency, "amount": amount},
            key=key,
            concessionaire=concessionaire,
        )

    async def buy_in(
        self,
        tournament: str,
        player: str,
        prize_part: int,
        fee: int,
        currency: str = "EUR",
        *,
        kind: str = "buy_in",
        key: str | None = None,
        concessionaire: str | None = None,
    ) -> httpx.Response:
        """`concessionaire`: the one the call acts for (as the director's registrations do)."""
        body = {"kind": kind, "player_id": player, "currency": currency, "prize_part": prize_part, "fee": fee}
        return await self.command(
            f"/internal/v1/tournaments/{tournament}/entries", body, key=key, concessionaire=concessionaire
        )

    async def player_account(self, player: str, currency: str = "EUR", kind: str = "player") -> dict[str, Any]:
        """The player's cash account in `currency`, or (kind="bonus") its bonus account."""
        response = await self.get(f"/internal/v1/players/{player}/accounts")
        assert response.status_code == 200, response.text
        (account,) = [a for a in response.json()["accounts"] if (a["kind"], a["currency"]) == (kind, currency)]
        return account

    async def balance(self, player: str, currency: str = "EUR", kind: str = "player") -> int:
        return int((await self.player_account(player, currency, kind))["balance"])

    async def bonus_prizes(
        self,
        tournament: str,
        sponsor: str,
        prizes: dict[str, int],
        currency: str = "EUR",
        *,
        key: str | None = None,
        concessionaire: str | None = None,
    ) -> httpx.Response:
        """P-9.3: `prizes` (player → amount) paid by `sponsor`; `concessionaire`: the one the call acts for."""
        body = {
            "concessionaire_id": sponsor,
            "currency": currency,
            "prizes": [{"player_id": player, "amount": amount} for player, amount in prizes.items()],
        }
        return await self.command(
            f"/internal/v1/tournaments/{tournament}/bonus-prizes", body, key=key, concessionaire=concessionaire
        )

    async def escrow(self, tournament: str) -> int:
        escrow = (await self.get(f"/internal/v1/tournaments/{tournament}")).json()["escrow"]
        return 0 if escrow is None else int(escrow["balance"])

    async def reconciliation(self) -> dict[str, Any]:
        response = await self.get("/internal/v1/reconciliation")
        assert response.status_code == 200, response.text
        return response.json()


def settings(url: str, **overrides: Any) -> Settings:
    # Background checks would run at random moments of a test: the tests run them explicitly instead.
    values: dict[str, Any] = {
        "reconciliation_interval_seconds": 3600.0,
        "hold_sweep_interval_seconds": 3600.0,
        "idempotency_purge_interval_seconds": 3600.0,
    }
    return Settings(database_url=url, **(values | overrides))


@asynccontextmanager
async def running_wallet(
    url: str, *, clock: Clock | None = None, **overrides: Any
) -> AsyncIterator[tuple[FastAPI, WalletApi]]:
    app = create_app(settings(url, **overrides), bus=InMemoryBus(), clock=clock)
    async with running_app(app, "http://wallet", timeout=60) as http:
        yield app, WalletApi(http)
