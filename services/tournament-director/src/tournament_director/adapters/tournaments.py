"""Tournaments, registrations and standings in the director's database."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import RowMapping, Select, and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import registrations, runs, standings, tournaments
from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.jackpots import JackpotProgramme


class Status(StrEnum):
    ANNOUNCED = "announced"
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TournamentRecord:
    tournament_id: str
    name: str
    status: Status
    currency: str
    concessionaire_id: str | None
    created_by: str
    template: str | None
    definition: TournamentDefinition
    jackpots: tuple[JackpotProgramme, ...]
    invited_player_ids: frozenset[str]
    registration_opens_at: datetime | None
    starts_at: datetime | None
    created_at: datetime
    started_at: datetime | None = None
    ended_at: datetime | None = None
    end_reason: str | None = None
    settled_at: datetime | None = None
    #: A sit'n'go that opens its successor when it fills (service/recurring.py).
    recurring: bool = False

    @property
    def kind(self) -> str:
        return self.definition.kind.value


class RegistrationStatus(StrEnum):
    #: The wallet call is under way (the seat is held).
    PAYING = "paying"
    REGISTERED = "registered"
    #: Leaving before the start: the refund is under way.
    REFUNDING = "refunding"
    UNREGISTERED = "unregistered"
    #: The wallet refused the payment.
    FAILED = "failed"
    #: Removed by a sanction, the entry forfeit (P-12.5).
    FORFEITED = "forfeited"


#: Registrations that hold a seat.
HOLDING_A_SEAT = (RegistrationStatus.PAYING, RegistrationStatus.REGISTERED)


@dataclass(frozen=True)
class Registration:
    tournament_id: str
    player_id: str
    concessionaire_id: str
    #: How the player entered: one of `platform_kit.events.tournament.RegistrationEntry` (stored as its word).
    entry: str
    ticket_code: str | None
    status: RegistrationStatus
    attempt: int
    prize_part_cents: int
    fee_cents: int
    registered_at: datetime


@dataclass(frozen=True)
class Listed:
    """A tournament as the lobby lists it, read in the same query: no round trip per tournament (issue 14)."""

    tournament: TournamentRecord
    #: Players registered now.
    registered: int
    #: Since when the director has paused it, while it runs paused; None otherwise.
    paused_at: datetime | None


@dataclass(frozen=True)
class Standing:
    player_id: str
    position: int
    prize_cents: int
    disqualified: bool


# ---- tournaments ---------------------------------------------------------------------------------------------


async def insert(session: AsyncSession, record: TournamentRecord) -> None:
    await session.execute(
        tournaments.insert().values(
            tournament_id=record.tournament_id,
            name=record.name,
            kind=record.kind,
            status=record.status.value,
            currency=record.currency,
            concessionaire_id=record.concessionaire_id,
            created_by=record.created_by,
            template=record.template,
            definition=record.definition.model_dump_json(),
            jackpots=json.dumps([programme.model_dump(mode="json") for programme in record.jackpots]),
            invited_player_ids=json.dumps(sorted(record.invited_player_ids)),
            registration_opens_at=record.registration_opens_at,
            starts_at=record.starts_at,
            created_at=record.created_at,
            recurring=record.recurring,
        )
    )


async def get(session: AsyncSession, tournament_id: str, *, lock: bool = False) -> TournamentRecord | None:
    """`lock`: hold the row until the transaction ends (PostgreSQL; SQLite transactions are serial anyway)."""
    query = select(tournaments).where(tournaments.c.tournament_id == tournament_id)
    row = (await session.execute(query.with_for_update() if lock else query)).mappings().first()
    return None if row is None else _record(row)


async def listing(
    session: AsyncSession, *, status: str | None = None, kind: str | None = None, limit: int = 500
) -> list[Listed]:
    query = _listed().order_by(tournaments.c.created_at.desc()).limit(limit)
    if status is not None:
        query = query.where(tournaments.c.status == status)
    if kind is not None:
        query = query.where(tournaments.c.kind == kind)
    return [_listed_row(row) for row in (await session.execute(query)).mappings()]


async def listed(session: AsyncSession, tournament_id: str) -> Listed | None:
    """One tournament as `listing` shows it."""
    query = _listed().where(tournaments.c.tournament_id == tournament_id)
    row = (await session.execute(query)).mappings().first()
    return None if row is None else _listed_row(row)


def _listed() -> Select[tuple[object, ...]]:
    """Each tournament row with its registered count and its run's pause (the run's row, not its snapshot)."""
    registered = (
        select(func.count())
        .where(
            registrations.c.tournament_id == tournaments.c.tournament_id,
            registrations.c.status == RegistrationStatus.REGISTERED.value,
        )
        .scalar_subquery()
    )
    return select(tournaments, registered.label("registered"), runs.c.paused_at).outerjoin(
        runs, runs.c.tournament_id == tournaments.c.tournament_id
    )


def _listed_row(row: object) -> Listed:
    record = _record(row)
    data = dict(row)  # type: ignore[call-overload]
    # A run left paused when its tournament was ended by other means shows no pause: only a running one is paused.
    paused_at = data["paused_at"] if record.status is Status.RUNNING else None
    return Listed(record, int(data["registered"]), paused_at)


async def due_to_open(session: AsyncSession, now: datetime) -> list[str]:
    query = select(tournaments.c.tournament_id).where(
        tournaments.c.status == Status.ANNOUNCED.value, tournaments.c.registration_opens_at <= now
    )
    return list((await session.scalars(query)).all())


async def due_to_start(session: AsyncSession, now: datetime) -> list[str]:
    query = select(tournaments.c.tournament_id).where(
        tournaments.c.status.in_([Status.ANNOUNCED.value, Status.REGISTERING.value]),
        tournaments.c.starts_at <= now,
    )
    return list((await session.scalars(query)).all())


async def set_status(
    session: AsyncSession,
    tournament_id: str,
    status: Status,
    now: datetime,
    *,
    reason: str | None = None,
) -> None:
    values: dict[str, object] = {"status": status.value}
    if status is Status.RUNNING:
        values["started_at"] = now
    elif status in (Status.FINISHED, Status.CANCELLED):
        values.update(ended_at=now, end_reason=reason)
    await session.execute(update(tournaments).where(tournaments.c.tournament_id == tournament_id).values(**values))


async def stop_recurring(session: AsyncSession, tournament_id: str) -> None:
    """The sit'n'go opens no successor when it fills: the recurring chain ends with it."""
    await session.execute(
        update(tournaments).where(tournaments.c.tournament_id == tournament_id).values(recurring=False)
    )


async def mark_settled(session: AsyncSession, tournament_id: str, now: datetime) -> None:
    await session.execute(
        update(tournaments).where(tournaments.c.tournament_id == tournament_id).values(settled_at=now)
    )


def _record(row: object) -> TournamentRecord:
    data = dict(row)  # type: ignore[call-overload]
    return TournamentRecord(
        tournament_id=data["tournament_id"],
        name=data["name"],
        status=Status(data["status"]),
        currency=data["currency"],
        concessionaire_id=data["concessionaire_id"],
        created_by=data["created_by"],
        template=data["template"],
        definition=TournamentDefinition.model_validate_json(data["definition"]),
        jackpots=tuple(JackpotProgramme.model_validate(item) for item in json.loads(data["jackpots"])),
        invited_player_ids=frozenset(json.loads(data["invited_player_ids"])),
        registration_opens_at=data["registration_opens_at"],
        starts_at=data["starts_at"],
        created_at=data["created_at"],
        started_at=data["started_at"],
        ended_at=data["ended_at"],
        end_reason=data["end_reason"],
        settled_at=data["settled_at"],
        recurring=bool(data["recurring"]),
    )


# ---- registrations -------------------------------------------------------------------------------------------


async def registration(session: AsyncSession, tournament_id: str, player_id: str) -> Registration | None:
    query = select(registrations).where(
        registrations.c.tournament_id == tournament_id, registrations.c.player_id == player_id
    )
    row = (await session.execute(query)).mappings().first()
    return None if row is None else _registration(row)


_REGISTRATION_PREFIX = "registration_"


async def with_registration(
    session: AsyncSession, tournament_id: str, player_id: str
) -> tuple[TournamentRecord, Registration | None] | None:
    """The tournament and the player's registration (None: never registered) in one round trip. Not for a
    read under the tournament's lock: on PostgreSQL a `FOR UPDATE OF tournaments` that waited for the lock
    returns the registration as it was before the wait (the statement's snapshot), not as the lock's holder
    left it; lock with `get(lock=True)` and read the registration in a statement of its own."""
    joined = and_(registrations.c.tournament_id == tournaments.c.tournament_id, registrations.c.player_id == player_id)
    query = (
        select(tournaments, *(column.label(_REGISTRATION_PREFIX + column.name) for column in registrations.c))
        .select_from(tournaments.outerjoin(registrations, joined))
        .where(tournaments.c.tournament_id == tournament_id)
    )
    row = (await session.execute(query)).mappings().first()
    if row is None:
        return None
    own = {column.name: row[_REGISTRATION_PREFIX + column.name] for column in registrations.c}
    return _record(row), None if own["player_id"] is None else _registration(own)


async def registrations_of(
    session: AsyncSession, tournament_id: str, statuses: Sequence[RegistrationStatus] | None = None
) -> list[Registration]:
    query = select(registrations).where(registrations.c.tournament_id == tournament_id)
    if statuses is not None:
        query = query.where(registrations.c.status.in_([status.value for status in statuses]))
    query = query.order_by(registrations.c.registered_at, registrations.c.player_id)
    return [_registration(row) for row in (await session.execute(query)).mappings()]


async def registrations_by_player(
    session: AsyncSession, tournament_id: str, player_ids: Sequence[str]
) -> dict[str, Registration]:
    """The registrations of those of `player_ids` ever registered in the tournament, by player."""
    query = select(registrations).where(
        registrations.c.tournament_id == tournament_id, registrations.c.player_id.in_(player_ids)
    )
    return {row["player_id"]: _registration(row) for row in (await session.execute(query)).mappings()}


async def registrations_of_player(session: AsyncSession, player_id: str) -> list[Registration]:
    query = select(registrations).where(registrations.c.player_id == player_id)
    return [_registration(row) for row in (await session.execute(query)).mappings()]


async def seats_taken(session: AsyncSession, tournament_id: str) -> int:
    query = select(func.count()).where(
        registrations.c.tournament_id == tournament_id,
        registrations.c.status.in_([status.value for status in HOLDING_A_SEAT]),
    )
    return int(await session.scalar(query) or 0)


async def registered_count(session: AsyncSession, tournament_id: str) -> int:
    query = select(func.count()).where(
        registrations.c.tournament_id == tournament_id,
        registrations.c.status == RegistrationStatus.REGISTERED.value,
    )
    return int(await session.scalar(query) or 0)


async def replace_registration(session: AsyncSession, registration: Registration) -> None:
    """Replace the player's earlier registration: a new attempt after leaving or failing. The caller read the
    earlier one under the tournament's lock, so it knows there is one."""
    await session.execute(
        update(registrations)
        .where(
            registrations.c.tournament_id == registration.tournament_id,
            registrations.c.player_id == registration.player_id,
        )
        .values(**_registration_values(registration))
    )


async def insert_registrations(session: AsyncSession, new: Sequence[Registration]) -> None:
    """Insert first registrations (one statement for all): nobody listed was ever registered here."""
    rows = [{"tournament_id": r.tournament_id, "player_id": r.player_id, **_registration_values(r)} for r in new]
    if rows:
        await session.execute(registrations.insert(), rows)


def _registration_values(registration: Registration) -> dict[str, object]:
    return {
        "concessionaire_id": registration.concessionaire_id,
        "entry": registration.entry,
        "ticket_code": registration.ticket_code,
        "status": registration.status.value,
        "attempt": registration.attempt,
        "prize_part_cents": registration.prize_part_cents,
        "fee_cents": registration.fee_cents,
        "registered_at": registration.registered_at,
    }


async def set_registration_status(
    session: AsyncSession, tournament_id: str, player_id: str, status: RegistrationStatus
) -> None:
    await set_registrations_status(session, tournament_id, [player_id], status)


async def set_registrations_status(
    session: AsyncSession, tournament_id: str, player_ids: Sequence[str], status: RegistrationStatus
) -> None:
    await session.execute(
        update(registrations)
        .where(registrations.c.tournament_id == tournament_id, registrations.c.player_id.in_(player_ids))
        .values(status=status.value)
    )


def _registration(row: object) -> Registration:
    data = dict(row)  # type: ignore[call-overload]
    return Registration(
        tournament_id=data["tournament_id"],
        player_id=data["player_id"],
        concessionaire_id=data["concessionaire_id"],
        entry=data["entry"],
        ticket_code=data["ticket_code"],
        status=RegistrationStatus(data["status"]),
        attempt=data["attempt"],
        prize_part_cents=data["prize_part_cents"],
        fee_cents=data["fee_cents"],
        registered_at=data["registered_at"],
    )


# ---- standings -----------------------------------------------------------------------------------------------


async def put_standing(session: AsyncSession, tournament_id: str, standing: Standing) -> None:
    where = (standings.c.tournament_id == tournament_id, standings.c.player_id == standing.player_id)
    values = {"position": standing.position, "prize_cents": standing.prize_cents, "disqualified": standing.disqualified}
    if (await session.execute(update(standings).where(*where).values(**values))).rowcount == 0:  # type: ignore[attr-defined]
        await session.execute(
            standings.insert().values(tournament_id=tournament_id, player_id=standing.player_id, **values)
        )


async def standings_of(session: AsyncSession, tournament_id: str) -> dict[str, Standing]:
    query = select(standings).where(standings.c.tournament_id == tournament_id)
    return {row["player_id"]: _standing(row) for row in (await session.execute(query)).mappings()}


async def standing_of(session: AsyncSession, tournament_id: str, player_id: str) -> Standing | None:
    """One player's standing: a player's own page reads this row, not the 3,000 of a large tournament."""
    query = select(standings).where(standings.c.tournament_id == tournament_id, standings.c.player_id == player_id)
    row = (await session.execute(query)).mappings().first()
    return None if row is None else _standing(row)


def _standing(row: RowMapping) -> Standing:
    return Standing(row["player_id"], row["position"], row["prize_cents"], row["disqualified"])
