"""The director's clock (a background task on the injected `Clock`): everything that happens because time
passed. Each duty is a command (`commands`: `OpenRegistration`, `StartScheduled`, `ChangeLevel`,
`DeclineLapsedOffer`) run through the handler table in a unit of work of its own, so that one failing
tournament does not hold up the others:

- registration opens at `registration_opens_at`;
- a scheduled tournament starts at `starts_at`, or is cancelled and refunded below its minimum (P-3.2);
- a run whose level or break changes is told so (`on_clock` at `next_clock_change`, P-7);
- a rebuy offer not answered in time counts as declined (P-4.2);
- the holders of automatic satellite seats are registered to their target once it takes registrations (P-3.4):
  each registration a `RegisterPlayer`, a caller's request;
- internal events left without their reaction (a crash after their commit, a reaction that failed) are
  reacted to (`platform_kit.unit_of_work`).

Crash behaviour: a duty that fails rolls back its unit and is logged; the next tick finds it due again.
"""

from __future__ import annotations

import asyncio
import logging

from tournament_director.adapters import offers, runs, tournaments
from tournament_director.service import satellites
from tournament_director.service.commands import (
    ChangeLevel,
    DeclineLapsedOffer,
    OpenRegistration,
    StartScheduled,
    UnitCommand,
)
from tournament_director.service.context import Director
from tournament_director.service.handlers import handle_in

log = logging.getLogger(__name__)


async def tick(director: Director) -> None:
    """One look at the clock: do what is due now."""
    for duty in await _due(director):
        await _each(director, duty)
    await satellites.register_automatic(director)
    await director.reactions.recover()


async def _due(director: Director) -> list[UnitCommand[None]]:
    now = director.now()
    async with director.runtime.units.reading() as session:
        opening = await tournaments.due_to_open(session, now)
        starting = await tournaments.due_to_start(session, now)
        levels = await runs.due_for_clock(session, now)
        lapsed = await offers.lapsed(session, now)
    return [
        *(OpenRegistration(t) for t in opening),
        *(StartScheduled(t) for t in starting),
        *(ChangeLevel(t) for t in levels),
        *(DeclineLapsedOffer(offer.tournament_id, offer.player_id) for offer in lapsed),
    ]


async def _each(director: Director, duty: UnitCommand[None]) -> None:
    """`duty` in a unit of work of its own; a failure is logged and tried again at the next tick."""
    try:
        async with director.unit() as uow:
            await handle_in(director, uow, duty)
    except Exception:
        log.exception("clock work failed; it is tried again at the next tick", extra={"duty": repr(duty)})


async def run_clock(director: Director) -> None:
    """The clock loop (a background task)."""
    while True:
        await tick(director)
        await asyncio.sleep(director.settings.clock_interval_seconds)
