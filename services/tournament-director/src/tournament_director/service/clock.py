"""The director's clock (a background task on the injected `Clock`): everything that happens because time
passed, each piece in its own transaction so that one failing tournament does not hold up the others.

- registration opens at `registration_opens_at`;
- a scheduled tournament starts at `starts_at`, or is cancelled and refunded below its minimum (P-3.2);
- a run whose level or break changes is told so (`on_clock` at `next_clock_change`, P-7);
- a rebuy offer not answered in time counts as declined (P-4.2);
- the holders of automatic satellite seats are registered to their target once it takes registrations (P-3.4);
- answers kept under Idempotency-Keys past their retention are deleted, a batch per tick;
- internal events left without their reaction (a crash after their commit, a reaction that failed) are
  reacted to (`platform_kit.unit_of_work`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import offers, runs, tournaments
from tournament_director.service import idempotent, lifecycle, purchases, satellites
from tournament_director.service.context import Director
from tournament_director.service.runs import act_on_run

log = logging.getLogger(__name__)


async def tick(director: Director) -> None:
    """One look at the clock: do what is due now."""
    now = director.now()
    async with director.runtime.db.sessions() as session:
        opening = await tournaments.due_to_open(session, now)
        starting = await tournaments.due_to_start(session, now)
        levels = await runs.due_for_clock(session, now)
        lapsed = await offers.lapsed(session, now)
    for tournament_id in opening:
        await _each(director, lifecycle.open_registration, tournament_id)
    for tournament_id in starting:
        await _each(director, lifecycle.start_scheduled, tournament_id)
    for tournament_id in levels:
        await _each(director, _on_clock, tournament_id)
    for offer in lapsed:
        await _each(director, purchases.decline_lapsed, offer.tournament_id, offer.player_id)
    await satellites.register_automatic(director)
    await idempotent.purge_expired(director)
    await director.reactions.recover()


async def _on_clock(director: Director, session: AsyncSession, tournament_id: str) -> None:
    """P-7: announce the level or break that began, offer add-ons, deal again after a break."""
    await act_on_run(director, session, tournament_id, lambda run, now: run.on_clock(now))


async def _each(director: Director, work: Callable[..., Awaitable[None]], *args: str) -> None:
    """`work(director, session, *args)` in a unit of work of its own; a failure is logged and tried again at the
    next tick."""
    try:
        async with director.unit() as uow:
            await work(director, uow.session, *args)
    except Exception:
        log.exception(
            "clock work failed; it is tried again at the next tick", extra={"work": work.__name__, "on": args}
        )


async def run_clock(director: Director) -> None:
    """The clock loop (a background task)."""
    while True:
        await tick(director)
        await asyncio.sleep(director.settings.clock_interval_seconds)
