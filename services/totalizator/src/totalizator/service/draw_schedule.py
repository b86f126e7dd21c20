"""Keeping a draw open for coupons (issue 17; domain/draw_schedule.py), a background task.

Invariant: while it runs, some draw is open for bets, save between a draw's closing and the next pass. When none
is open it opens the week's draw through the same use cases as an administrator's (DrawAdmin.create, then
.announce), as the `draw-schedule` administrator, under the week's deterministic id: a draw that exists already
is found, not made again, so replicas and restarts agree. A crash between creating and announcing leaves a
draft, which the next pass announces; two replicas racing for the same id: one insert wins, the other is told
`draw_exists` and announces it too (announcing an open draw changes nothing). A week whose draw was closed or
cancelled already is passed over for the next week's.
"""

from __future__ import annotations

import asyncio
import logging

from platform_kit.errors import ProblemError

from totalizator.adapters import draws
from totalizator.domain import DrawStatus
from totalizator.domain.draw_schedule import PERIOD, WeeklyDraw, next_close, weekly_draw
from totalizator.service.context import Context
from totalizator.service.draws import CurrencySpec, DraftSpec, DrawAdmin, MatchSpec
from totalizator.service.staff import Staff, StaffRole

log = logging.getLogger(__name__)

SCHEDULER = Staff(StaffRole.ADMIN, "draw-schedule")
WEEKS_TRIED = 4  # a week whose draw is over already: look at the next ones


def draft_of(planned: WeeklyDraw) -> DraftSpec:
    return DraftSpec(
        draw_id=planned.draw_id,
        close_at=planned.close_at,
        matches=tuple(MatchSpec(f.home, f.away, f.kickoff, f.competition) for f in planned.fixtures),
        currencies=tuple(CurrencySpec(*terms) for terms in planned.currencies),
    )


class DrawSchedule:
    def __init__(self, context: Context, admin: DrawAdmin) -> None:
        self._context = context
        self._admin = admin

    async def keep(self) -> str | None:
        """One pass: the id of the draw this pass opened, or None (one is open, or none could be opened)."""
        try:
            return await self._open_one()
        except Exception:
            log.exception("the week's draw could not be opened; tried again later")
            return None

    async def _open_one(self) -> str | None:
        async with self._context.units.unit() as uow:
            if await draws.ids(uow.session, [DrawStatus.OPEN]):
                return None
        close_at = next_close(self._context.now())
        for _ in range(WEEKS_TRIED):
            planned = weekly_draw(close_at)
            status = await self._status(planned.draw_id)
            if status is None:
                try:
                    await self._admin.create(draft_of(planned), SCHEDULER)
                except ProblemError as problem:
                    if problem.code != "draw_exists":
                        raise
                status = DrawStatus.DRAFT
            if status is DrawStatus.DRAFT:
                await self._admin.announce(planned.draw_id, SCHEDULER)
                log.info("the week's draw opened", extra={"draw_id": planned.draw_id})
                return planned.draw_id
            if status is DrawStatus.OPEN:
                return None
            close_at += PERIOD
        return None

    async def _status(self, draw_id: str) -> DrawStatus | None:
        async with self._context.units.unit() as uow:
            if not await draws.exists(uow.session, draw_id):
                return None
            return (await draws.get(uow.session, draw_id)).status

    async def run(self) -> None:
        while True:
            await self.keep()
            await asyncio.sleep(self._context.settings.tick_interval_seconds)
