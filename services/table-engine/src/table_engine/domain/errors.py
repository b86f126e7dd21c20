"""Why the engine refuses something: a machine-readable code plus a sentence for people."""

from __future__ import annotations

from enum import StrEnum


class RejectionCode(StrEnum):
    """Stable codes for every refusal; clients switch on these, never on the message."""

    HAND_COMPLETE = "hand_complete"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_SEAT = "unknown_seat"
    UNKNOWN_ACTION = "unknown_action"
    WRONG_PHASE = "wrong_phase"
    CANNOT_CHECK = "cannot_check"
    CANNOT_CALL = "cannot_call"
    CANNOT_FOLD = "cannot_fold"
    RAISE_NOT_REOPENED = "raise_not_reopened"
    RAISE_CAP_REACHED = "raise_cap_reached"
    NO_OPPONENT_TO_RAISE = "no_opponent_to_raise"
    STACK_TOO_SHORT_TO_RAISE = "stack_too_short_to_raise"
    INVALID_AMOUNT = "invalid_amount"
    AMOUNT_TOO_SMALL = "amount_too_small"
    AMOUNT_TOO_LARGE = "amount_too_large"


class ActionRejected(Exception):
    """An action the rules do not allow. The hand is left exactly as it was."""

    def __init__(self, code: RejectionCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"ActionRejected({self.code.value!r}, {self.message!r})"


class InvalidConfiguration(ValueError):
    """A hand or table configuration that cannot be played (bad stakes, seats, positions or deck)."""
