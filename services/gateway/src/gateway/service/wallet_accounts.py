"""A player's money in the wallet, as the gateway moves it: opening the player's account, and the
concessionaire's cashier paying money in (deposits are reported by the concessionaire; the cash itself stays
with it).

The wallet learns a player's concessionaire when their first account is opened, so the gateway opens it
before the first deposit. Opening is idempotent under a key derived from the player and the currency.
"""

from __future__ import annotations

import httpx
from platform_kit import wallet_operations as wo

from gateway.adapters.identity_store import PlayerRecord
from gateway.adapters.service_client import ServiceClient
from gateway.domain.roles import Principal

CONCESSIONAIRE_HEADER = "X-Concessionaire-Id"


def acting_for(player: PlayerRecord) -> dict[str, str]:
    """Wallet calls on a player's money act for the player's concessionaire, whoever the caller is (an
    administrator belongs to none): the wallet then refuses to touch anyone else's money."""
    return {CONCESSIONAIRE_HEADER: player.concessionaire_id}


class WalletAccounts:
    def __init__(self, wallet: ServiceClient) -> None:
        self._wallet = wallet

    async def open(self, player: PlayerRecord, currency: str, by: Principal | None = None) -> httpx.Response:
        body = wo.OpenAccountIn.model_construct(concessionaire_id=player.concessionaire_id, currency=currency)
        request = wo.OPEN_ACCOUNT.request(body, player_id=player.id)
        return await self._wallet.request(
            "POST",
            request.path,
            json=request.body,
            idempotency_key=f"gateway:open-account:{player.id}:{currency}",
            principal=by,
            headers=acting_for(player),
        )

    async def deposit(
        self,
        player: PlayerRecord,
        currency: str,
        amount: int,
        *,
        reference: str | None,
        key: str,
        by: Principal | None = None,
    ) -> httpx.Response:
        """Money paid in at the player's concessionaire: its account is opened first if needed."""
        await self.open(player, currency, by)
        return await self._wallet.request(
            "POST",
            f"/internal/v1/partner/players/{player.id}/deposits",
            json={"currency": currency, "amount": amount, "reference": reference},
            idempotency_key=key,
            principal=by,
            headers=acting_for(player),
        )
