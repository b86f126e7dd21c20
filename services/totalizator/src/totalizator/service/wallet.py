"""What the service needs from the wallet: a port for the coupons' stakes, so use cases do not depend on HTTP,
and the kinds of a draw's transfers (made as the kit's outgoing calls: service/transfers.py).

Every call moves money in one currency of one draw and carries an idempotency key: repeating a call with the
same key (after a timeout, a crash, a restart) gives the first answer and moves nothing again. The HTTP
adapter is adapters/wallet_client.py; the tests run it against the real wallet app in-process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol


class PaymentKind(StrEnum):
    """From a draw's pool to a player, in the coupon's currency."""

    PAYOUT = "payout"  # T-6
    REFUND = "refund"  # T-5.5, or a cancelled draw


@dataclass(frozen=True, slots=True)
class Payment:
    """One player's part of a payment call: minor units of the call's currency."""

    player_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class Stake:
    """A coupon's stake, under its own idempotency key (the key its retries carry)."""

    player_id: str
    currency: str
    amount: int
    coupon_id: str
    key: str


class TransferKind(StrEnum):
    """Between a draw's pool and the organizer's (network's) accounts; the wallet's operation kinds."""

    ORGANIZER_TOP_UP = "organizer_top_up"  # T-6.2, T-4.4: into the pool
    JACKPOT_RELEASE = "jackpot_release"  # T-4: from the jackpot account into the pool
    ORGANIZER_SHARE = "organizer_share"  # T-1.1: out of the pool
    JACKPOT_CARRY = "jackpot_carry"  # T-3.2, T-3.3: out of the pool into the jackpot account
    ROUNDING_REMAINDER = "rounding_remainder"  # T-6.3: out of the pool


class WalletRefused(Exception):
    """The wallet refused the call (problem+json). Final for this idempotency key: a retry gets it again."""

    def __init__(self, status: int, code: str, message: str, body: dict[str, Any]) -> None:
        super().__init__(f"wallet refused ({status} {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class WalletUnavailable(Exception):
    """No answer from the wallet (network error, timeout, 5xx): the call may or may not have happened.
    Retry it with the same idempotency key."""


class WalletPort(Protocol):
    async def stakes(self, draw_id: str, stakes: Sequence[Stake]) -> list[int | WalletRefused]:
        """Move coupons' stakes from the players' accounts to the draw's pool, in one call: per stake, in order, its
        operation id or the wallet's refusal of it (a refusal stops no other stake). WalletUnavailable: no answer,
        so any of them may have been taken; each is asked again with its key."""
