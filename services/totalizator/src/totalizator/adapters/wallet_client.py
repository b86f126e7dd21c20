"""The wallet's internal REST API (services/wallet/src/wallet/api/internal.py) behind the service's WalletPort.

Each call goes through the kit's internal client (platform_kit.internal_client: the internal token, the caller's
request id, the Idempotency-Key). A problem+json answer is the wallet's refusal (final for that key); no answer, a timeout or
a 5xx is "unavailable": the money may or may not have moved, and the caller retries with the same key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from platform_kit.internal_client import InternalClient

from totalizator.service.wallet import Payment, PaymentKind, TransferKind, WalletRefused, WalletUnavailable

_PAYMENT_PATHS = {PaymentKind.PAYOUT: "payouts", PaymentKind.REFUND: "refunds"}


class HttpWallet:
    def __init__(self, client: InternalClient) -> None:
        self._client = client

    async def close(self) -> None:
        await self._client.aclose()

    async def stake(self, draw_id: str, *, player_id: str, currency: str, amount: int, coupon_id: str, key: str) -> int:
        body = {"player_id": player_id, "currency": currency, "amount": amount, "coupon_id": coupon_id}
        return await self._command(f"/internal/v1/draws/{draw_id}/stakes", body, key)

    async def pay(
        self, draw_id: str, kind: PaymentKind, *, currency: str, payments: Sequence[Payment], key: str
    ) -> int:
        body = {"currency": currency, "payments": [{"player_id": p.player_id, "amount": p.amount} for p in payments]}
        return await self._command(f"/internal/v1/draws/{draw_id}/{_PAYMENT_PATHS[kind]}", body, key)

    async def transfer(self, draw_id: str, kind: TransferKind, *, currency: str, amount: int, key: str) -> int:
        body = {"kind": str(kind), "currency": currency, "amount": amount}
        return await self._command(f"/internal/v1/draws/{draw_id}/organizer-transfers", body, key)

    async def _command(self, path: str, body: dict[str, Any], key: str) -> int:
        try:
            response = await self._client.request("POST", path, json=body, idempotency_key=key)
        except httpx.HTTPError as exc:
            raise WalletUnavailable(f"wallet call {path} failed: {type(exc).__name__}: {exc}") from exc
        # 401: our token is wrong, so the wallet did nothing; like a 5xx, worth retrying once it is fixed.
        if response.status_code >= 500 or response.status_code == 401:
            raise WalletUnavailable(f"wallet call {path} answered {response.status_code}")
        if response.status_code >= 400:
            raise _refusal(response)
        operation_id: int = response.json()["operation_id"]
        return operation_id


def _refusal(response: httpx.Response) -> WalletRefused:
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or f"wallet_http_{response.status_code}")
    message = str(body.get("title") or response.text[:200])
    return WalletRefused(response.status_code, code, message, body)
