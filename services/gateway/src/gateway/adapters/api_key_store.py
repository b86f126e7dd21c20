"""Partner API keys: looked up by their public prefix, checked against the stored digest."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, literal, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters.orm import api_keys


@dataclass(frozen=True, slots=True)
class ApiKeyRecord:
    id: str
    concessionaire_id: str
    prefix: str
    secret_hash: str
    label: str
    created_by: str
    created_at: datetime
    revoked_at: datetime | None = None


async def insert(session: AsyncSession, record: ApiKeyRecord) -> None:
    await session.execute(api_keys.insert().values({name: getattr(record, name) for name in record.__slots__}))


async def by_prefix(session: AsyncSession, prefix: str) -> ApiKeyRecord | None:
    row = (await session.execute(select(api_keys).where(api_keys.c.prefix == prefix))).first()
    return ApiKeyRecord(**row._mapping) if row else None


async def for_concessionaire(session: AsyncSession, concessionaire_id: str) -> list[ApiKeyRecord]:
    query = select(api_keys).where(api_keys.c.concessionaire_id == concessionaire_id).order_by(api_keys.c.created_at)
    return [ApiKeyRecord(**row._mapping) for row in await session.execute(query)]


async def revoke(session: AsyncSession, key_id: str, concessionaire_id: str, now: datetime) -> bool:
    """False when the concessionaire has no such key; revoking twice is harmless."""
    result = await session.execute(
        update(api_keys)
        .where(api_keys.c.id == key_id, api_keys.c.concessionaire_id == concessionaire_id)
        .values(
            revoked_at=func.coalesce(api_keys.c.revoked_at, literal(now, api_keys.c.revoked_at.type))
        )  # the first revocation's time stays
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]
