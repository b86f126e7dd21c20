"""Each coupon's outcome, told once its draw is over (`totalizator.coupon.settled`, one event per coupon).

Written by the transaction that marks the draw settled or cancelled (service/settlement.py, `_finish`), before
the draw's own event: every payment of the plan is made by then, so a `won` or `refunded` coupon's money is in
the player's wallet, and the draw's event stays the last word on its channel. The amounts are read back from the
plan the settlement wrote (wallet_transfers), so they are exactly what was paid, wallet operation included.
"""

from __future__ import annotations

from platform_kit.events.totalizator import CouponSettled
from platform_kit.outbox import Outbox
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import coupons
from totalizator.domain import coupon_outcome


async def coupon_events(session: AsyncSession, draw_id: str, *, refunded: bool) -> list[CouponSettled]:
    """One event per accepted coupon of the draw, in acceptance order."""
    return [
        CouponSettled(
            coupon_id=coupon.coupon_id,
            draw_id=draw_id,
            player_id=coupon.player_id,
            status=coupon_outcome(refunded=refunded, paid=coupon.paid).value,
            currency=coupon.currency,
            stake=coupon.stake,
            amount=coupon.paid,
            wallet_operation_id=coupon.operation_id,
        )
        for coupon in await coupons.payments(session, draw_id)
    ]


async def publish_outcomes(session: AsyncSession, outbox: Outbox, draw_id: str, *, refunded: bool) -> int:
    """Write every coupon's outcome to the outbox in the caller's transaction (a statement per 1,000 events);
    returns how many."""
    return len(await outbox.add_many(session, await coupon_events(session, draw_id, refunded=refunded)))
