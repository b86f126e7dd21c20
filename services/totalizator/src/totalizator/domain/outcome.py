"""What became of one coupon once its draw is over (pure: the settlement decided the amounts)."""

from __future__ import annotations

from enum import StrEnum


class CouponOutcome(StrEnum):
    WON = "won"
    LOST = "lost"
    REFUNDED = "refunded"


def coupon_outcome(*, refunded: bool, paid: int) -> CouponOutcome:
    """A draw not played (T-5.5) or cancelled refunds every coupon, whatever its picks; otherwise a coupon paid
    something won (T-1.2, T-6.2: a winning bet gets at least 1.2 × its stake, so never 0) and one paid nothing
    lost."""
    if paid < 0:
        raise ValueError("a coupon is never paid a negative amount")
    if refunded:
        return CouponOutcome.REFUNDED
    return CouponOutcome.WON if paid else CouponOutcome.LOST
