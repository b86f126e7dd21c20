"""Live statistics (T-2.6): per match and result, the bets and the amount staked so far.

Bet intake does not touch the statistics (every coupon updating the same rows would serialise intake).
The draw clock folds newly paid-for coupons into the stored snapshot instead, at most once per
`statistics_interval_seconds` per draw, and publishes `totalizator.statistics.updated` when anything
changed; the REST view reads the same snapshot, so both are at most that interval behind. When the draw's
count becomes final, every remaining coupon is folded in the same transaction (see DrawClock.finalize).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from platform_kit.events.totalizator import OptionStatistics, StatisticsUpdated
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import coupons, draws
from totalizator.adapters import statistics as stored
from totalizator.adapters.draws import usd_text
from totalizator.domain import Draw, DrawStatus, LiveStatistics
from totalizator.files.report import usd
from totalizator.service.context import Context
from totalizator.service.queries import public_draw

BATCH = 20_000  # coupons folded per transaction


@dataclass(frozen=True, slots=True)
class StatisticsView:
    draw: Draw
    status: DrawStatus
    final: bool
    as_of: datetime
    statistics: LiveStatistics


class Statistics:
    def __init__(self, context: Context) -> None:
        self.context = context

    async def fold_due(self) -> None:
        """Fold new coupons of every draw taking bets (or closed but not yet final), when due."""
        async with self.context.units.unit() as uow:
            draw_ids = await draws.ids(uow.session, [DrawStatus.OPEN, DrawStatus.CLOSED])
        for draw_id in draw_ids:
            await self.fold(draw_id)

    async def fold(self, draw_id: str) -> bool:
        """One throttled batch for one draw; True if the statistics changed."""
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id)
            draw = await self.context.draws.draw(uow.session, record)
            return await self.fold_in(uow.session, draw, throttle=True)

    async def fold_in(self, session: AsyncSession, draw: Draw, *, throttle: bool) -> bool:
        """Fold the draw's uncounted coupons in the caller's transaction and publish the new statistics.

        Throttled: at most once per interval and one batch. Not throttled (the count becoming final): all of
        them. False when nothing changed."""
        now = self.context.now()
        current = await stored.get(session, draw.draw_id, for_update=True)
        if current is None:
            return False
        interval = timedelta(seconds=self.context.settings.statistics_interval_seconds)
        if throttle and now - current.updated_at < interval:
            return False
        live = LiveStatistics.resume(draw, current.snapshot)
        changed = False
        while True:
            batch = await coupons.uncounted(session, draw.draw_id, limit=BATCH)
            for _, coupon in batch:
                live.add(coupon)
            await coupons.mark_counted(session, [row_id for row_id, _ in batch])
            changed = changed or bool(batch)
            if throttle or len(batch) < BATCH:
                break
        if changed:
            await stored.save(session, draw.draw_id, live.snapshot(), at=now)
            await self.context.outbox.add(session, statistics_event(draw, live, now))
        return changed

    async def view(self, draw_id: str) -> StatisticsView:
        async with self.context.units.unit() as uow:
            record = await public_draw(uow.session, draw_id)
            draw = await self.context.draws.draw(uow.session, record)
            current = await stored.get(uow.session, draw_id)
        live = LiveStatistics(draw) if current is None else LiveStatistics.resume(draw, current.snapshot)
        as_of = record.created_at if current is None else current.updated_at
        return StatisticsView(draw, record.status, record.is_final, as_of, live)


def statistics_event(draw: Draw, live: LiveStatistics, as_of: datetime) -> StatisticsUpdated:
    return StatisticsUpdated(
        draw_id=draw.draw_id,
        as_of=as_of,
        coupons=live.coupons,
        bets=live.bets,
        pool_usd=usd_text(live.pool_usd),
        options=[
            OptionStatistics(match_no=row.match_no, option=row.option, bets=row.bets, amount_usd=usd(row.amount_usd))
            for match in draw.matches
            for row in live.match(match.no)
        ],
    )
