"""Tickets: codes that register their holder for free (P-3.4, P-10.12).

A ticket is worth the price of the entry it replaces (prize part + fee) in one currency, for tournaments of one
kind with that buy-in. Its prize part stays in the escrow of `source_tournament_id` until it is used; the fee
stays with the concessionaire that took it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import tickets


@dataclass(frozen=True)
class Ticket:
    code: str
    player_id: str
    currency: str
    prize_part_cents: int
    fee_cents: int
    tournament_kind: str
    source_tournament_id: str
    issued_reason: str
    issued_at: datetime
    used_by_tournament_id: str | None = None
    used_at: datetime | None = None
    #: A satellite's seat: for this target while it is open to registration (P-3.4).
    target_tournament_id: str | None = None
    #: The fee is still in the source's escrow (a satellite seat), not kept by the concessionaire.
    fee_in_escrow: bool = False
    #: The director registers the holder to the target by itself (automatic registration, P-3.4).
    automatic: bool = False


async def issue(session: AsyncSession, ticket: Ticket) -> None:
    await session.execute(
        tickets.insert().values(
            code=ticket.code,
            player_id=ticket.player_id,
            currency=ticket.currency,
            prize_part_cents=ticket.prize_part_cents,
            fee_cents=ticket.fee_cents,
            tournament_kind=ticket.tournament_kind,
            source_tournament_id=ticket.source_tournament_id,
            issued_reason=ticket.issued_reason,
            issued_at=ticket.issued_at,
            target_tournament_id=ticket.target_tournament_id,
            fee_in_escrow=ticket.fee_in_escrow,
            automatic=ticket.automatic,
        )
    )


async def get(session: AsyncSession, code: str) -> Ticket | None:
    row = (await session.execute(select(tickets).where(tickets.c.code == code).with_for_update())).mappings().first()
    return None if row is None else Ticket(**dict(row))


async def of_player(session: AsyncSession, player_id: str) -> list[Ticket]:
    query = select(tickets).where(tickets.c.player_id == player_id).order_by(tickets.c.issued_at, tickets.c.code)
    return [Ticket(**dict(row)) for row in (await session.execute(query)).mappings()]


async def use(session: AsyncSession, code: str, tournament_id: str | None, now: datetime | None) -> None:
    """Mark the ticket used by `tournament_id` (None: free again, the registration did not go through)."""
    await session.execute(
        update(tickets).where(tickets.c.code == code).values(used_by_tournament_id=tournament_id, used_at=now)
    )


async def count_issued(session: AsyncSession, source_tournament_id: str, reason: str) -> int:
    query = select(func.count()).where(
        tickets.c.source_tournament_id == source_tournament_id, tickets.c.issued_reason == reason
    )
    return int(await session.scalar(query) or 0)


async def satellite_seat(session: AsyncSession, player_id: str, target_tournament_id: str) -> Ticket | None:
    """An unused satellite seat of `player_id` for `target_tournament_id` (the oldest), locked."""
    query = (
        select(tickets)
        .where(
            tickets.c.player_id == player_id,
            tickets.c.target_tournament_id == target_tournament_id,
            tickets.c.used_by_tournament_id.is_(None),
        )
        .order_by(tickets.c.issued_at, tickets.c.code)
        .limit(1)
        .with_for_update()
    )
    row = (await session.execute(query)).mappings().first()
    return None if row is None else Ticket(**dict(row))


async def automatic(session: AsyncSession) -> list[Ticket]:
    """Unused seats whose holders the director is to register by itself."""
    query = (
        select(tickets)
        .where(tickets.c.automatic.is_(True), tickets.c.used_by_tournament_id.is_(None))
        .order_by(tickets.c.issued_at, tickets.c.code)
    )
    return [Ticket(**dict(row)) for row in (await session.execute(query)).mappings()]


async def stop_automatic(session: AsyncSession, code: str) -> None:
    """The automatic registration was refused for good: the seat stays, its holder registers with it."""
    await session.execute(update(tickets).where(tickets.c.code == code).values(automatic=False))
