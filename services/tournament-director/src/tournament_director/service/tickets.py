"""Tickets (P-3.4, P-10.12): issued for ticket entries given back, checked and taken at registration."""

from __future__ import annotations

from platform_kit.errors import Conflict, Forbidden, NotFound
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import tickets, tournaments
from tournament_director.adapters.tickets import Ticket
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.service.context import Director

#: No 0/O or 1/I: codes are read out and typed in.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10


async def issue(
    director: Director,
    session: AsyncSession,
    *,
    player_id: str,
    source: TournamentRecord,
    prize_part_cents: int,
    fee_cents: int,
    reason: str,
    seat_in: TournamentRecord | None = None,
    automatic: bool = False,
) -> str:
    """A fresh ticket for `player_id`, worth an entry of `source`'s kind at this price, backed by `source`'s
    escrow (P-10.12). Returns its code.

    With `seat_in`, a satellite's seat (P-3.4): an entry of that target's kind, for that target while it takes
    registrations, whose fee is still in `source`'s escrow; `automatic` has the director register its holder."""
    code = "TK-" + "".join(director.rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    ticket = Ticket(
        code=code,
        player_id=player_id,
        currency=source.currency,
        prize_part_cents=prize_part_cents,
        fee_cents=fee_cents,
        tournament_kind=(seat_in or source).kind,
        source_tournament_id=source.tournament_id,
        issued_reason=reason,
        issued_at=director.now(),
        target_tournament_id=None if seat_in is None else seat_in.tournament_id,
        fee_in_escrow=seat_in is not None,
        automatic=automatic,
    )
    await tickets.issue(session, ticket)
    return code


async def usable(session: AsyncSession, code: str, player_id: str, tournament: TournamentRecord) -> Ticket:
    """The ticket, if `player_id` may enter `tournament` with it: theirs, unused, of the tournament's kind,
    currency and buy-in. A satellite's seat is for its target alone while the target takes registrations;
    once it no longer does (started, cancelled), the seat is worth any tournament of that kind and buy-in."""
    ticket = await tickets.get(session, code)
    if ticket is None or ticket.player_id != player_id:
        raise NotFound("ticket_not_found", "No such ticket for this player.")
    if ticket.used_by_tournament_id is not None:
        raise Conflict("ticket_used", "This ticket was already used.", used_by=ticket.used_by_tournament_id)
    target = ticket.target_tournament_id
    if target is not None and target != tournament.tournament_id and await _takes_registrations(session, target):
        raise Conflict(
            "ticket_not_valid_here", "This ticket is a seat in another tournament.", target_tournament_id=target
        )
    here = tournament.tournament_id
    if not tournament.definition.direct_buy_in and here not in (target, ticket.source_tournament_id):
        raise Forbidden(
            "satellite_entry_only", "This tournament is entered only with a seat won in one of its satellites."
        )
    buy_in = tournament.definition.buy_in
    fits = (
        ticket.tournament_kind == tournament.kind
        and ticket.currency == tournament.currency
        and (ticket.prize_part_cents, ticket.fee_cents) == (buy_in.prize_part_cents, buy_in.fee_cents)
    )
    if not fits:
        raise Conflict(
            "ticket_not_valid_here",
            "This ticket is for another kind of tournament, currency or buy-in.",
            tournament_kind=ticket.tournament_kind,
            currency=ticket.currency,
            prize_part_cents=ticket.prize_part_cents,
            fee_cents=ticket.fee_cents,
        )
    return ticket


async def _takes_registrations(session: AsyncSession, tournament_id: str) -> bool:
    target = await tournaments.get(session, tournament_id)
    return target is not None and target.status in (Status.ANNOUNCED, Status.REGISTERING)
