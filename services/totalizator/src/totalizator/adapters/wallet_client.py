"""The wallet's internal REST API (services/wallet/src/wallet/api/internal.py): the stakes behind the service's
WalletPort, and the requests of a draw's transfers (made as the kit's outgoing calls, service/transfers.py), all
built from the wallet's own declarations (platform_kit.wallet_operations).

Each call goes through the kit's internal client (platform_kit.internal_client: the internal token, the caller's
request id, the Idempotency-Key). A problem+json answer is the wallet's refusal (final for that key); no answer, a timeout or
a 5xx is "unavailable": the money may or may not have moved, and the caller retries with the same key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from platform_kit import wallet_operations as wo
from platform_kit.internal_client import InternalClient
from platform_kit.wallet_operations import WalletRequest

from totalizator.service.wallet import Payment, PaymentKind, Stake, TransferKind, WalletRefused, WalletUnavailable

_PAYMENTS = {PaymentKind.PAYOUT: wo.DRAW_PAYOUTS, PaymentKind.REFUND: wo.DRAW_REFUNDS}


def payments_request(draw_id: str, kind: PaymentKind, currency: str, payments: Sequence[Payment]) -> WalletRequest:
    """Pay players from the draw's pool in one operation (all or nothing). A player may appear more than once
    (one payment per coupon); a resent call carries the same payments in the same order (the wallet refuses a
    key reused with another request)."""
    lines = [wo.PlayerAmount.model_construct(player_id=p.player_id, amount=p.amount) for p in payments]
    body = wo.DrawPaymentsIn.model_construct(currency=currency, payments=lines)
    return _PAYMENTS[kind].request(body, draw_id=draw_id)


def transfer_request(draw_id: str, kind: TransferKind, currency: str, amount: int) -> WalletRequest:
    """Money between the draw's pool and the organizer's accounts."""
    body = wo.OrganizerTransferIn.model_construct(kind=kind.value, currency=currency, amount=amount)
    return wo.ORGANIZER_TRANSFER.request(body, draw_id=draw_id)


class HttpWallet:
    """The stakes (the draw's transfers are the kit's outgoing calls, made with the same client)."""

    def __init__(self, client: InternalClient) -> None:
        self._client = client

    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        """One call per MAX_STAKES_PER_BATCH stakes. A batch the wallet refuses whole (422: a stake no single stake
        route would take either, e.g. an amount past its bound) goes again one stake at a time, so that only that
        stake is refused, as it is when sent alone."""
        answers: list[int | WalletRefused] = []
        for start in range(0, len(stakes), wo.MAX_STAKES_PER_BATCH):
            chunk = stakes[start : start + wo.MAX_STAKES_PER_BATCH]
            lines = [
                wo.KeyedStakeIn.model_construct(
                    key=s.key, player_id=s.player_id, currency=s.currency, amount=s.amount, coupon_id=s.coupon_id
                )
                for s in chunk
            ]
            request = wo.STAKE_BATCH.request(wo.StakeBatchIn.model_construct(stakes=lines), draw_id=draw_id)
            response = await self._send(request, None)
            if response.status_code == 422:
                answers += [await self._alone(draw_id, stake) for stake in chunk]
                continue
            if response.status_code != 200:
                raise WalletUnavailable(f"wallet call {request.path} answered {response.status_code}")
            answers += [_stake_answer(answer) for answer in response.json()["answers"]]
        return answers

    async def _alone(self, draw_id: str, stake: Stake) -> int | WalletRefused:
        body = wo.StakeIn.model_construct(
            player_id=stake.player_id, currency=stake.currency, amount=stake.amount, coupon_id=stake.coupon_id
        )
        try:
            return await self._command(wo.STAKE.request(body, draw_id=draw_id), stake.key)
        except WalletRefused as refusal:
            return refusal

    async def _command(self, request: WalletRequest, key: str) -> int:
        path = request.path
        response = await self._send(request, key)
        # 401: our token is wrong, so the wallet did nothing; like a 5xx, worth retrying once it is fixed.
        if response.status_code >= 500 or response.status_code == 401:
            raise WalletUnavailable(f"wallet call {path} answered {response.status_code}")
        if response.status_code >= 400:
            raise _refusal(response)
        operation_id: int = response.json()["operation_id"]
        return operation_id

    async def _send(self, request: WalletRequest, key: str | None) -> httpx.Response:
        try:
            return await self._client.request("POST", request.path, json=request.body, idempotency_key=key)
        except httpx.HTTPError as exc:
            raise WalletUnavailable(f"wallet call {request.path} failed: {type(exc).__name__}: {exc}") from exc


def _stake_answer(answer: dict[str, Any]) -> int | WalletRefused:
    """A stake's own answer in a batch: the operation (201), or its refusal as a single stake's would read."""
    body = answer["body"]
    if answer["status"] == 201:
        operation_id: int = body["operation_id"]
        return operation_id
    code = str(body.get("code") or f"wallet_http_{answer['status']}")
    return WalletRefused(answer["status"], code, str(body.get("title") or code), body)


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
