"""The draw clock: what happens because time passes, run every `tick_interval_seconds`.

- Closing (T-2.5): an open draw whose closing time has come is closed, under the same row lock bet intake
  takes, so every coupon is either committed before the close or refused.
- The final count (T-2.6): once a closed draw has no stake left unconfirmed, its statistics are completed,
  its count and pool fixed, `totalizator.draw.closed` published, and its files (T-8) can be downloaded.
- Live statistics, stakes to retry, and settlements or cancellations to resume.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from fractions import Fraction

from platform_kit.events.totalizator import DrawClosed

from totalizator.adapters import coupons, draws
from totalizator.adapters.draws import Lock, usd_text
from totalizator.domain import DrawStatus
from totalizator.service.context import Context
from totalizator.service.coupons import CouponIntake
from totalizator.service.settlement import Settlements
from totalizator.service.statistics import Statistics

log = logging.getLogger(__name__)


class DrawClock:
    def __init__(
        self, context: Context, statistics: Statistics, intake: CouponIntake, settlements: Settlements
    ) -> None:
        self.context = context
        self.statistics = statistics
        self.intake = intake
        self.settlements = settlements

    async def run(self) -> None:
        """For the life of the service (ServiceRuntime.in_background)."""
        while True:
            await self.tick()
            await asyncio.sleep(self.context.settings.tick_interval_seconds)

    async def tick(self) -> None:
        steps: list[Callable[[], Awaitable[object]]] = [
            self.close_due,
            self.intake.retry_pending,
            self.finalize_due,
            self.statistics.fold_due,
            self.settlements.advance_all,
        ]
        for step in steps:  # one failing step must not stop the others
            try:
                await step()
            except Exception:
                log.exception("draw clock step failed", extra={"step": getattr(step, "__name__", str(step))})

    async def close_due(self) -> list[str]:
        async with self.context.units.unit() as uow:
            due = await draws.ids(uow.session, [DrawStatus.OPEN], closing_by=self.context.now())
        return [draw_id for draw_id in due if await self.close(draw_id) is not None]

    async def close(self, draw_id: str) -> int | None:
        """Close an open draw whose closing time has come (T-2.5). Returns how many coupons it took before
        closing (their stakes may still be unconfirmed); None if it is not open or not due."""
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            now = self.context.now()
            if record.status is not DrawStatus.OPEN or now < record.close_at:
                return None
            await draws.update_draw(uow.session, draw_id, status=str(DrawStatus.CLOSED), closed_at=now)
            # Under the lock no intake is in flight: this count can only shrink (stakes the wallet refuses).
            taken = await coupons.count_taken(uow.session, draw_id)
        log.info("draw closed", extra={"draw_id": draw_id, "coupons": taken})
        await self.finalize(draw_id)
        return taken

    async def finalize_due(self) -> None:
        async with self.context.units.unit() as uow:
            closed = await draws.ids(uow.session, [DrawStatus.CLOSED])
        for draw_id in closed:
            await self.finalize(draw_id)

    async def finalize(self, draw_id: str) -> bool:
        """Fix the final count and pool of a closed draw once every accepted stake is confirmed (T-2.6)."""
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status is not DrawStatus.CLOSED or record.is_final:
                return False
            if await coupons.count_pending(uow.session, draw_id):
                return False
            draw = await self.context.draws.draw(uow.session, record)
            await self.statistics.fold_in(uow.session, draw, throttle=False)
            totals = await coupons.accepted_totals(uow.session, draw_id)
            pool = sum((draw.terms(t.currency).to_usd(t.amount) for t in totals), Fraction(0))
            count = sum(t.coupons for t in totals)
            bets = sum(t.bets for t in totals)
            await draws.update_draw(
                uow.session,
                draw_id,
                final_at=self.context.now(),
                final_coupons=count,
                final_bets=bets,
                final_pool_usd=usd_text(pool),
            )
            assert record.closed_at is not None
            await uow.publish(
                DrawClosed(
                    draw_id=draw_id, closed_at=record.closed_at, coupons=count, bets=bets, pool_usd=usd_text(pool)
                ),
            )
        return True
