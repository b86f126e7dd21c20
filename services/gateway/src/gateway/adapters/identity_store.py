"""Reading and writing concessionaires, players and staff members, inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from platform_kit.errors import NotFound
from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from gateway.adapters.orm import concessionaires, players, staff_members
from gateway.domain.identity import nickname_key
from gateway.domain.roles import Principal, Role


@dataclass(frozen=True, slots=True)
class ConcessionaireRecord:
    id: str
    code: str
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    nickname: str
    email: str
    date_of_birth: date
    concessionaire_id: str
    password_hash: str
    created_at: datetime

    @property
    def principal(self) -> Principal:
        return Principal(Role.PLAYER, self.id, self.concessionaire_id, self.nickname)


@dataclass(frozen=True, slots=True)
class StaffRecord:
    id: str
    email: str
    role: Role
    concessionaire_id: str | None
    password_hash: str
    created_at: datetime

    @property
    def principal(self) -> Principal:
        return Principal(self.role, self.id, self.concessionaire_id)


# -- concessionaires ---------------------------------------------------------------------------------------------
async def insert_concessionaire(session: AsyncSession, record: ConcessionaireRecord) -> None:
    await session.execute(concessionaires.insert().values(**_fields(record)))


async def get_concessionaire(session: AsyncSession, concessionaire_id: str) -> ConcessionaireRecord | None:
    row = (await session.execute(select(concessionaires).where(concessionaires.c.id == concessionaire_id))).first()
    return ConcessionaireRecord(**row._mapping) if row else None


async def require_concessionaire(session: AsyncSession, concessionaire_id: str) -> ConcessionaireRecord:
    """The concessionaire, or 404 `concessionaire_not_found`: one answer wherever staff name one that is not."""
    record = await get_concessionaire(session, concessionaire_id)
    if record is None:
        raise NotFound("concessionaire_not_found", "No such concessionaire.")
    return record


async def concessionaire_by_code(session: AsyncSession, code: str) -> ConcessionaireRecord | None:
    row = (await session.execute(select(concessionaires).where(concessionaires.c.code == code))).first()
    return ConcessionaireRecord(**row._mapping) if row else None


async def list_concessionaires(session: AsyncSession) -> list[ConcessionaireRecord]:
    rows = await session.execute(select(concessionaires).order_by(concessionaires.c.code))
    return [ConcessionaireRecord(**row._mapping) for row in rows]


# -- players -----------------------------------------------------------------------------------------------------
async def insert_player(session: AsyncSession, record: PlayerRecord) -> None:
    await session.execute(players.insert().values(nickname_key=nickname_key(record.nickname), **_fields(record)))


async def get_player(session: AsyncSession | AsyncConnection, player_id: str) -> PlayerRecord | None:
    """Through a use case's session, or a read connection (`UnitsOfWork.read_connection`: every request that
    names a player reads it, issue 14)."""
    row = (await session.execute(_PLAYER_BY_ID, {"player_id": player_id})).first()
    return PlayerRecord(**row._mapping) if row else None


async def player_by_login(session: AsyncSession, login: str) -> PlayerRecord | None:
    """A player logs in with their nickname (any case) or their email."""
    condition = or_(players.c.nickname_key == nickname_key(login), players.c.email == login.strip().lower())
    row = (await session.execute(select(*player_columns()).where(condition))).first()
    return PlayerRecord(**row._mapping) if row else None


async def nickname_taken(session: AsyncSession, nickname: str) -> bool:
    query = select(func.count()).where(players.c.nickname_key == nickname_key(nickname))
    return bool(await session.scalar(query))


async def email_taken(session: AsyncSession, email: str) -> bool:
    return bool(await session.scalar(select(func.count()).where(players.c.email == email)))


async def list_players(
    session: AsyncSession, concessionaire_id: str | None, *, limit: int, offset: int
) -> list[PlayerRecord]:
    query = select(*player_columns()).order_by(players.c.created_at, players.c.id).limit(limit).offset(offset)
    if concessionaire_id is not None:
        query = query.where(players.c.concessionaire_id == concessionaire_id)
    return [PlayerRecord(**row._mapping) for row in await session.execute(query)]


async def nicknames(session: AsyncSession, player_ids: list[str]) -> dict[str, str]:
    rows = await session.execute(select(players.c.id, players.c.nickname).where(players.c.id.in_(player_ids)))
    return {player_id: nickname for player_id, nickname in rows}


async def update_player(session: AsyncSession, player_id: str, **values: Any) -> None:
    await session.execute(update(players).where(players.c.id == player_id).values(**values))


# -- staff -------------------------------------------------------------------------------------------------------
async def insert_staff(session: AsyncSession, record: StaffRecord) -> None:
    await session.execute(staff_members.insert().values(**_fields(record)))


async def staff_by_email(session: AsyncSession, email: str) -> StaffRecord | None:
    row = (await session.execute(select(staff_members).where(staff_members.c.email == email))).first()
    return _staff(row._mapping) if row else None


async def get_staff(session: AsyncSession, staff_id: str) -> StaffRecord | None:
    row = (await session.execute(select(staff_members).where(staff_members.c.id == staff_id))).first()
    return _staff(row._mapping) if row else None


async def update_staff(session: AsyncSession, staff_id: str, **values: Any) -> None:
    await session.execute(update(staff_members).where(staff_members.c.id == staff_id).values(**values))


def _staff(mapping: Any) -> StaffRecord:
    return StaffRecord(**{**mapping, "role": Role(mapping["role"])})


def player_columns() -> list[Any]:
    """What a `PlayerRecord` is read from, by the columns' own names."""
    return [column for column in players.c if column.name != "nickname_key"]


# Built once, the id bound per call: every authenticated player request that names a player reads it, and
# building the SELECT and its cache key each time cost more CPU than executing it (issue 14).
_PLAYER_BY_ID = select(*player_columns()).where(players.c.id == bindparam("player_id"))


def _fields(record: Any) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__slots__}
