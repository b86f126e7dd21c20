"""Runs a command at most once per idempotency key, and answers every retry with the first answer.

The key is claimed, the command executed and its response stored in ONE transaction: after a crash either
all three happened or none did, and a retry executes the command afresh. The command's balance changes are
applied last, in the statement that stores its answer and writes its events (service/balance_updates.py). A refusal (insufficient funds …) is
the command's answer too: its effects are rolled back, then the refusal is stored under the key in a
second transaction, so the same key keeps getting it (as Stripe and TigerBeetle do) even if the money
arrives later. A new attempt takes a new key.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from platform_kit.clock import Clock
from platform_kit.errors import Conflict
from platform_kit.unit_of_work import UnitsOfWork
from prometheus_client import CollectorRegistry, Counter
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters import idempotency
from wallet.domain.errors import Refusal
from wallet.service import balance_updates
from wallet.service.refusals import problem_body, status_of

Command = Callable[[AsyncSession], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Outcome:
    status: int
    body: dict[str, Any]
    replayed: bool


class IdempotentExecutor:
    def __init__(self, units: UnitsOfWork, clock: Clock, registry: CollectorRegistry) -> None:
        self.units = units
        self.clock = clock
        self.outcomes = Counter(
            "wallet_commands_total",
            "Wallet commands by outcome: executed, refused, replayed, key_reused",
            ["outcome"],
            registry=registry,
        )

    async def run(self, scope: str, key: str, fingerprint: str, status: int, command: Command) -> Outcome:
        """Execute `command(session)` under (`scope`, `key`) and answer `status` with its body."""
        try:
            return await self._run(scope, key, fingerprint, status, command)
        except KeyPurged:
            # Found taken, then purged past its retention before its answer was read: the key is new again.
            return await self._run(scope, key, fingerprint, status, command)

    async def _run(self, scope: str, key: str, fingerprint: str, status: int, command: Command) -> Outcome:
        try:
            async with self.units.unit() as uow:
                if not await idempotency.claim(uow.session, scope, key, fingerprint, self.clock.now()):
                    return await self._replay(uow.session, scope, key, fingerprint)
                balance_updates.defer(uow.session)
                body = await command(uow.session)
                # The balances last, with the answer and the events: the rows the command changes stay locked
                # only for this statement and the commit.
                await balance_updates.settle(uow.session, idempotency.answer(scope, key, status, body))
            self.outcomes.labels("executed").inc()
            return Outcome(status, body, replayed=False)
        except Refusal as refusal:
            refused_status = status_of(refusal)
            refused = problem_body(refused_status, refusal.code, refusal.message, refusal.details)
        async with self.units.unit() as uow:
            stored = await idempotency.claim(
                uow.session, scope, key, fingerprint, self.clock.now(), status=refused_status, body=refused
            )
            if not stored:  # a concurrent duplicate answered first: its answer is the key's answer
                return await self._replay(uow.session, scope, key, fingerprint)
        self.outcomes.labels("refused").inc()
        return Outcome(refused_status, refused, replayed=False)

    async def _replay(self, session: AsyncSession, scope: str, key: str, fingerprint: str) -> Outcome:
        first = await idempotency.stored(session, scope, key)
        if first is None:
            raise KeyPurged
        if first.fingerprint != fingerprint:
            self.outcomes.labels("key_reused").inc()
            raise Conflict(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different request.",
                idempotency_key=key,
            )
        self.outcomes.labels("replayed").inc()
        return Outcome(first.status, first.body, replayed=True)


class KeyPurged(Exception):
    """The key was taken when claimed and gone when its answer was read (the retention purge)."""
