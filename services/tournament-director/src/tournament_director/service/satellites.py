"""Satellites (P-3.4): the seats a finished satellite won, and the automatic registration of their holders.

Each seat is a ticket for the satellite's target, worth the target's buy-in (prize part + fee), backed by the
satellite's escrow, which keeps the seat's whole price until the seat is used: entering the target then moves
the prize part to the target's escrow and the fee to the player's concessionaire, exactly as a buy-in would
(the wallet's satellite entry). The prize mode decides how the seat is used:

- `ticket`: the player enters the target with the ticket's code (`entry: ticket`);
- `free_registration_right`: the player registers to the target with `entry: satellite`, no code to type — the
  target may be closed to buy-ins (`direct_buy_in` false);
- `automatic_registration`: the director registers the player itself, on its clock, as soon as the target takes
  registrations. A refusal that waiting cannot cure (already registered, full, not eligible, closed) stops the
  attempts and leaves the seat to its holder, as a right.

**Interpretation.** A seat whose target no longer takes registrations (started, cancelled) is worth an entry
to any tournament of the target's kind and buy-in, like a ticket given back (P-10.12): its value is never lost.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from platform_kit.errors import ProblemError, Unavailable
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import runs, tickets, tournaments
from tournament_director.adapters.tickets import Ticket
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.kinds import SatellitePrizeMode
from tournament_director.service import tickets as ticket_service
from tournament_director.service.commands import RegisterPlayer
from tournament_director.service.context import Director
from tournament_director.service.events import SatelliteSettled
from tournament_director.service.handlers import handle

log = logging.getLogger(__name__)

#: Why a seat's ticket was issued, by the satellite's prize mode (`tickets.issued_reason`).
SEAT_REASONS = {
    SatellitePrizeMode.TICKET: "satellite_ticket",
    SatellitePrizeMode.FREE_REGISTRATION_RIGHT: "satellite_right",
    SatellitePrizeMode.AUTOMATIC_REGISTRATION: "satellite_seat",
}


async def on_satellite_settled(director: Director, uow: UnitOfWork, event: SatelliteSettled) -> None:
    """The reaction to a satellite's settlement, once it committed: its winners' seats (reacted to once)."""
    satellite = await tournaments.get(uow.session, event.tournament_id)
    run = await runs.peek(uow.session, event.tournament_id, director.rng, director.run_cache)
    assert satellite is not None and run is not None and run.outcome is not None
    await award_seats(director, uow.session, satellite, run.outcome.seat_winners)


async def award_seats(
    director: Director, session: AsyncSession, satellite: TournamentRecord, winners: Sequence[str]
) -> None:
    """One seat in the target for each of `winners` (P-3.4), in the form the satellite's prize mode gives."""
    settings = satellite.definition.satellite
    assert settings is not None, f"{satellite.tournament_id} is not a satellite"
    target = await tournaments.get(session, settings.target_tournament_id)
    assert target is not None, f"the target of {satellite.tournament_id} was checked at creation"
    for player in winners:
        await ticket_service.issue(
            director,
            session,
            player_id=player,
            source=satellite,
            prize_part_cents=settings.seat_price.prize_part_cents,
            fee_cents=settings.seat_price.fee_cents,
            reason=SEAT_REASONS[settings.prize_mode],
            seat_in=target,
            automatic=settings.prize_mode is SatellitePrizeMode.AUTOMATIC_REGISTRATION,
        )


async def register_automatic(director: Director) -> None:
    """Register the holders of automatic seats whose target takes registrations (a clock task)."""
    async with director.runtime.units.reading() as session:
        pending = await tickets.automatic(session)
    for seat in pending:
        try:
            await _register(director, seat)
        except Exception:  # one seat failing must not hold up the others, nor stop the clock
            log.exception("automatic satellite registration failed; tried again at the next tick")


async def _register(director: Director, seat: Ticket) -> None:
    assert seat.target_tournament_id is not None
    async with director.runtime.units.reading() as session:
        target = await tournaments.get(session, seat.target_tournament_id)
        entered = await tournaments.registration(session, seat.source_tournament_id, seat.player_id)
    assert target is not None and entered is not None
    if target.status is Status.ANNOUNCED:
        return  # registration is not open yet: wait for it
    command = RegisterPlayer(
        target.tournament_id, seat.player_id, entered.concessionaire_id, "satellite", client_key=f"seat:{seat.code}"
    )
    try:
        await handle(director, command)
    except Unavailable:
        return  # the wallet or the rating cannot be reached: the next tick tries again
    except ProblemError as refusal:
        log.info(
            "satellite seat not registered automatically; its holder keeps it",
            extra={"ticket": seat.code, "target": target.tournament_id, "code": refusal.code},
        )
        async with director.unit() as uow:
            await tickets.stop_automatic(uow.session, seat.code)
