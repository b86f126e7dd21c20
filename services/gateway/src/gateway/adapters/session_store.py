"""Refresh tokens: stored as digests, grouped in families (one family per log-in)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters.orm import refresh_tokens
from gateway.domain.refresh import RefreshTokenState
from gateway.domain.roles import Role


@dataclass(frozen=True, slots=True)
class RefreshTokenRecord:
    id: str
    family_id: str
    token_hash: str
    subject_role: Role
    subject_id: str
    issued_at: datetime
    expires_at: datetime
    used_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def state(self) -> RefreshTokenState:
        return RefreshTokenState(self.expires_at, self.used_at, self.revoked_at)


async def insert(session: AsyncSession, record: RefreshTokenRecord) -> None:
    await session.execute(
        refresh_tokens.insert().values(
            id=record.id,
            family_id=record.family_id,
            token_hash=record.token_hash,
            subject_role=record.subject_role.value,
            subject_id=record.subject_id,
            issued_at=record.issued_at,
            expires_at=record.expires_at,
        )
    )


async def by_hash(session: AsyncSession, token_hash: str) -> RefreshTokenRecord | None:
    row = (await session.execute(select(refresh_tokens).where(refresh_tokens.c.token_hash == token_hash))).first()
    if row is None:
        return None
    return RefreshTokenRecord(**{**row._mapping, "subject_role": Role(row.subject_role)})


async def mark_used(session: AsyncSession, token_id: str, now: datetime) -> bool:
    """Use the token once: False when another request used or revoked it first (a race is a reuse too)."""
    result = await session.execute(
        update(refresh_tokens)
        .where(
            refresh_tokens.c.id == token_id,
            refresh_tokens.c.used_at.is_(None),
            refresh_tokens.c.revoked_at.is_(None),
        )
        .values(used_at=now)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def revoke_family(session: AsyncSession, family_id: str, now: datetime) -> None:
    await session.execute(
        update(refresh_tokens)
        .where(refresh_tokens.c.family_id == family_id, refresh_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


async def revoke_subject(session: AsyncSession, role: Role, subject_id: str, now: datetime) -> None:
    """End every session of one account (a ban, a password change)."""
    await session.execute(
        update(refresh_tokens)
        .where(
            refresh_tokens.c.subject_role == role.value,
            refresh_tokens.c.subject_id == subject_id,
            refresh_tokens.c.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
