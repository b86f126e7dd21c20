"""Refusals raised by the domain: each carries a stable machine-readable `code` and a human `message`.

The service maps them onto its HTTP problem responses; the domain itself knows nothing of HTTP.
"""

from __future__ import annotations

from enum import StrEnum


class TotalizatorError(Exception):
    """Base of every domain refusal."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidDraw(TotalizatorError):
    """A draw definition breaks the rules (T-2.1, T-2.2, T-2.3): the draw cannot be announced as given."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_draw", message)


class RejectionCode(StrEnum):
    """Why a coupon was refused."""

    BETTING_CLOSED = "betting_closed"  # T-2.5
    DRAW_NOT_PLAYABLE = "draw_not_playable"  # T-5.5: three or more matches are void
    UNDERAGE_PLAYER = "underage_player"  # T-1.4
    CURRENCY_NOT_ACCEPTED = "currency_not_accepted"  # T-2.2
    WRONG_MATCH_COUNT = "wrong_match_count"  # T-2.4: one pick list per match of the draw
    NO_OPTION_PICKED = "no_option_picked"  # T-2.4: at least one result per match
    OPTION_NOT_OFFERED = "option_not_offered"  # T-2.1
    DUPLICATE_OPTION = "duplicate_option"
    BELOW_MINIMUM_STAKE = "below_minimum_stake"  # T-2.4


class CouponRejected(TotalizatorError):
    """A coupon is refused (T-2.4, T-2.5, T-1.4); `code` is a RejectionCode."""

    code: RejectionCode

    def __init__(self, code: RejectionCode, message: str) -> None:
        super().__init__(code, message)


class CannotSettle(TotalizatorError):
    """Settlement is impossible with the data given (a valid match without a result, a foreign coupon)."""

    def __init__(self, message: str) -> None:
        super().__init__("cannot_settle", message)
