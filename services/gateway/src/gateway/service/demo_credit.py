"""The demo concessionaire's welcome credit: each new player of `demo` gets play money paid in at once, so a
newcomer trying the platform can buy into a sit'n'go or place a coupon (`GATEWAY_DEMO_WELCOME_CREDIT_CENTS`).

It is an ordinary deposit from the demo concessionaire's cash account, under an idempotency key derived from
the player, so it happens at most once per player. The consumer of `gateway.player.registered` only queues the
player (a bus handler runs inside a database transaction, which must not wait for the wallet); a background
worker pays in, retrying while the wallet is unreachable. A credit still queued when the gateway stops is not
paid: acceptable for play money, and the player can sign up again.
"""

from __future__ import annotations

import asyncio
import logging

from platform_kit.bus import Envelope
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store
from gateway.service.concessionaires import DEMO_CODE
from gateway.service.wallet_accounts import WalletAccounts

log = logging.getLogger(__name__)

REGISTERED = PlayerRegistered.TYPE
REFERENCE = "demo welcome credit"


class DemoCredit:
    def __init__(
        self,
        units: UnitsOfWork,
        wallet: WalletAccounts,
        *,
        amount: int,
        currency: str,
        retry_seconds: float = 2.0,
        attempts: int = 30,
    ) -> None:
        self._units = units
        self._wallet = wallet
        self._amount = amount
        self._currency = currency
        self._retry_seconds = retry_seconds
        self._attempts = attempts
        self._pending: asyncio.Queue[str] = asyncio.Queue()

    async def registered(self, session: AsyncSession, envelope: Envelope) -> None:
        """`runtime.on(REGISTERED, credit.registered)`."""
        event = envelope.event()
        assert isinstance(event, PlayerRegistered)
        demo = await identity_store.concessionaire_by_code(session, DEMO_CODE)
        if demo is not None and event.concessionaire_id == demo.id:
            self._pending.put_nowait(event.player_id)

    async def run(self) -> None:
        """The worker (`runtime.in_background`)."""
        while True:
            player_id = await self._pending.get()
            await self._credit(player_id)

    async def _credit(self, player_id: str) -> None:
        async with self._units.reading() as session:
            player = await identity_store.get_player(session, player_id)
        if player is None:
            return
        for attempt in range(1, self._attempts + 1):
            try:
                await self._wallet.deposit(
                    player,
                    self._currency,
                    self._amount,
                    reference=REFERENCE,
                    key=f"gateway:demo-credit:{player.id}",
                )
                return
            except Exception:
                log.warning("demo credit not paid yet", extra={"player_id": player_id, "attempt": attempt})
                await asyncio.sleep(self._retry_seconds)
        log.error("demo credit given up", extra={"player_id": player_id})
