"""A domain refusal as the HTTP problem clients see: status and problem+json body."""

from __future__ import annotations

from typing import Any

from platform_kit.errors import ProblemError

from wallet.domain import errors
from wallet.domain.deposit_limits import DepositLimitExceeded

STATUS: dict[type[errors.Refusal], int] = {
    errors.InvalidAmount: 422,
    errors.UnknownCurrency: 422,
    errors.CurrencyMismatch: 422,
    errors.PrizePartTooSmall: 422,
    errors.JackpotNotFromFee: 422,
    errors.DuplicatePlayer: 422,
    DepositLimitExceeded: 422,
    errors.UnknownAccount: 404,
    errors.UnknownHold: 404,
    errors.UnknownOperation: 404,
    errors.ForbiddenConcessionaire: 403,
    errors.InsufficientFunds: 409,
    errors.HoldExpired: 409,
    errors.HoldNotPending: 409,
    errors.AlreadyReversed: 409,
    errors.NotReversible: 409,
}


def status_of(refusal: errors.Refusal) -> int:
    return STATUS[type(refusal)]


def problem_body(status: int, code: str, message: str, details: dict[str, Any]) -> dict[str, Any]:
    """The kit's problem+json shape (platform_kit.errors.problem), as stored for idempotent replays."""
    return {"type": f"urn:problem:{code}", "title": message, "status": status, "code": code, **details}


def as_problem(refusal: errors.Refusal) -> ProblemError:
    return ProblemError(refusal.code, refusal.message, status=status_of(refusal), **refusal.details)
