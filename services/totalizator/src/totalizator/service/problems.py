"""The domain's refusals as the problem+json errors clients see (stable codes, fitting HTTP statuses)."""

from __future__ import annotations

from platform_kit.errors import Conflict, ProblemError

from totalizator.domain import CannotSettle, CouponRejected, DrawStatus, InvalidDraw, RejectionCode

_COUPON_STATUS = {
    RejectionCode.BETTING_CLOSED: 409,  # T-2.5
    RejectionCode.DRAW_NOT_PLAYABLE: 409,  # T-5.5
    RejectionCode.UNDERAGE_PLAYER: 403,  # T-1.4
}


def coupon_refused(rejection: CouponRejected) -> ProblemError:
    """T-1.4, T-2.4, T-2.5, T-5.5: the coupon is refused; nothing was charged."""
    return ProblemError(
        rejection.code, rejection.message, status=_COUPON_STATUS.get(RejectionCode(rejection.code), 422)
    )


def invalid_draw(error: InvalidDraw) -> ProblemError:
    return ProblemError(error.code, error.message, status=422)


def cannot_settle(error: CannotSettle) -> ProblemError:
    return Conflict(error.code, error.message)


def wrong_status(draw_id: str, status: DrawStatus, action: str) -> ProblemError:
    return Conflict(
        "draw_state_conflict", f"Draw {draw_id} is {status}: it cannot {action} now.", draw_status=str(status)
    )


def betting_not_open(draw_id: str, status: DrawStatus) -> ProblemError:
    """A coupon for a draw that does not take bets (any more, or yet)."""
    if status in (DrawStatus.CANCELLING, DrawStatus.CANCELLED):
        return Conflict("draw_cancelled", f"Draw {draw_id} is cancelled: it takes no bets.")
    if status is DrawStatus.DRAFT:
        return ProblemError("draw_not_found", f"There is no draw {draw_id!r}.", status=404, draw_id=draw_id)
    return Conflict(
        str(RejectionCode.BETTING_CLOSED), f"Draw {draw_id} is closed for bets (T-2.5).", draw_status=str(status)
    )
