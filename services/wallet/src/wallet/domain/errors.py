"""Why the ledger refuses a command: each refusal has a stable, machine-readable code.

The service layer turns a refusal into an HTTP problem (status chosen there); the domain only says what is
wrong and with which details.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Refusal(Exception):
    code: ClassVar[str]

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvalidAmount(Refusal):
    code = "invalid_amount"


class UnknownCurrency(Refusal):
    code = "unknown_currency"


class CurrencyMismatch(Refusal):
    code = "currency_mismatch"


class UnknownAccount(Refusal):
    code = "unknown_account"


class InsufficientFunds(Refusal):
    code = "insufficient_funds"


class ForbiddenConcessionaire(Refusal):
    code = "forbidden_concessionaire"


class PrizePartTooSmall(Refusal):
    """P-8.1: the prize part is never less than 80% of the price."""

    code = "prize_part_below_80_percent"


class JackpotNotFromFee(Refusal):
    """P-8.6: a jackpot is funded from the fee, never from the prize part."""

    code = "jackpot_contribution_exceeds_fee"


class DuplicatePlayer(Refusal):
    """A list of per-player amounts names a player twice (P-9.3: one prize per player)."""

    code = "duplicate_player"


class UnknownHold(Refusal):
    code = "unknown_hold"


class HoldExpired(Refusal):
    code = "hold_expired"


class HoldNotPending(Refusal):
    code = "hold_not_pending"


class UnknownOperation(Refusal):
    code = "unknown_operation"


class AlreadyReversed(Refusal):
    code = "already_reversed"


class NotReversible(Refusal):
    code = "not_reversible"
