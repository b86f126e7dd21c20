"""Reading and writing partner webhook endpoints, their delivery outbox and the partner's notices, inside the
caller's transaction.

The outbox's order is `seq` per endpoint: the dispatcher only ever sends an endpoint's oldest pending delivery
(`due_heads`), and only while it holds the endpoint's lease (`claim`), so two gateway instances never send two of
one endpoint's deliveries at once, nor out of order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters.orm import players, webhook_deliveries, webhook_endpoints, webhook_notices

PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"


@dataclass(frozen=True, slots=True)
class EndpointRecord:
    id: str
    concessionaire_id: str
    url: str
    event_types: tuple[str, ...]
    description: str
    secret: str
    previous_secret: str | None
    previous_secret_until: datetime | None
    enabled: bool
    disabled_reason: str | None
    disabled_at: datetime | None
    failing_since: datetime | None
    lease_until: datetime | None
    created_by: str
    created_at: datetime

    def signing_secrets(self, now: datetime) -> list[str]:
        """The secrets that sign now: the current one, and the previous one during its overlap window."""
        overlap = self.previous_secret and self.previous_secret_until and now < self.previous_secret_until
        return [self.secret, self.previous_secret] if overlap and self.previous_secret else [self.secret]


@dataclass(frozen=True, slots=True)
class DeliveryRecord:
    seq: int
    endpoint_id: str
    event_id: str
    event_type: str
    body: str
    created_at: datetime
    status: str
    attempts: int
    next_attempt_at: datetime
    first_attempt_at: datetime | None
    last_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    delivered_at: datetime | None


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    id: int
    concessionaire_id: str
    endpoint_id: str
    kind: str
    message_en: str
    message_it: str
    created_at: datetime


# -- endpoints ---------------------------------------------------------------------------------------------------
async def insert_endpoint(session: AsyncSession, record: EndpointRecord) -> None:
    values = {name: getattr(record, name) for name in record.__slots__}
    values["event_types"] = " ".join(record.event_types)
    await session.execute(webhook_endpoints.insert().values(values))


async def get_endpoint(session: AsyncSession, endpoint_id: str, concessionaire_id: str) -> EndpointRecord | None:
    query = select(webhook_endpoints).where(
        webhook_endpoints.c.id == endpoint_id, webhook_endpoints.c.concessionaire_id == concessionaire_id
    )
    row = (await session.execute(query)).first()
    return _endpoint(row._mapping) if row else None


async def endpoints_of(session: AsyncSession, concessionaire_id: str) -> list[EndpointRecord]:
    query = (
        select(webhook_endpoints)
        .where(webhook_endpoints.c.concessionaire_id == concessionaire_id)
        .order_by(webhook_endpoints.c.created_at, webhook_endpoints.c.id)
    )
    return [_endpoint(row._mapping) for row in await session.execute(query)]


async def subscribed_types(session: AsyncSession) -> frozenset[str]:
    """Every event type some endpoint of some concessionaire chose, enabled or not (a handful of rows: one per
    distinct choice)."""
    query = select(webhook_endpoints.c.event_types).distinct()
    return frozenset(event_type for chosen in await session.scalars(query) for event_type in chosen.split())


async def subscribed(
    session: AsyncSession, concessionaire_ids: set[str] | None, event_type: str
) -> list[EndpointRecord]:
    """Endpoints of these concessionaires (None: of every one) that chose `event_type`, enabled or not: a disabled
    endpoint's deliveries wait for it to be enabled again."""
    query = select(webhook_endpoints).where(webhook_endpoints.c.event_types.contains(event_type))
    if concessionaire_ids is not None:
        query = query.where(webhook_endpoints.c.concessionaire_id.in_(sorted(concessionaire_ids)))
    found = [_endpoint(row._mapping) for row in await session.execute(query)]
    return [endpoint for endpoint in found if event_type in endpoint.event_types]  # `contains` is a substring


async def update_endpoint(session: AsyncSession, endpoint_id: str, **values: Any) -> None:
    if "event_types" in values:
        values["event_types"] = " ".join(values["event_types"])
    await session.execute(update(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id).values(**values))


async def delete_endpoint(session: AsyncSession, endpoint_id: str) -> None:
    await session.execute(delete(webhook_deliveries).where(webhook_deliveries.c.endpoint_id == endpoint_id))
    await session.execute(delete(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id))


async def claim(session: AsyncSession, endpoint_id: str, now: datetime, until: datetime) -> bool:
    """Take the endpoint's lease unless another dispatcher holds it; the endpoint must still be enabled."""
    result = await session.execute(
        update(webhook_endpoints)
        .where(
            webhook_endpoints.c.id == endpoint_id,
            webhook_endpoints.c.enabled.is_(True),
            or_(webhook_endpoints.c.lease_until.is_(None), webhook_endpoints.c.lease_until <= now),
        )
        .values(lease_until=until)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def endpoint_by_id(session: AsyncSession, endpoint_id: str) -> EndpointRecord | None:
    row = (await session.execute(select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id))).first()
    return _endpoint(row._mapping) if row else None


async def player_concessionaires(session: AsyncSession, player_ids: set[str]) -> dict[str, str]:
    """Player id -> concessionaire id, for the players the gateway knows among these."""
    if not player_ids:
        return {}
    query = select(players.c.id, players.c.concessionaire_id).where(players.c.id.in_(sorted(player_ids)))
    return {player_id: concessionaire_id for player_id, concessionaire_id in await session.execute(query)}


# -- deliveries --------------------------------------------------------------------------------------------------
#: Built once: the rows go as parameters. Building an INSERT with its values for each delivery was most of what a
#: consumed event cost when a partner takes it (bench/bench_webhook_intake.py, issue 14).
_INSERT_DELIVERIES = webhook_deliveries.insert()


def delivery_row(endpoint_id: str, event_id: str, event_type: str, body: str, now: datetime) -> dict[str, Any]:
    """A delivery to queue with `insert_deliveries`: due at once."""
    return {
        "endpoint_id": endpoint_id,
        "event_id": event_id,
        "event_type": event_type,
        "body": body,
        "created_at": now,
        "next_attempt_at": now,
    }


async def insert_deliveries(session: AsyncSession, rows: Sequence[Mapping[str, Any]]) -> None:
    """Queue these deliveries (`delivery_row`), pending and never attempted, numbered in the order given."""
    await session.execute(_INSERT_DELIVERIES, [{**row, "status": PENDING, "attempts": 0} for row in rows])


async def deliveries_of(
    session: AsyncSession, endpoint_id: str, *, status: str | None, limit: int, before: int | None
) -> list[DeliveryRecord]:
    """The newest first (a log), `before` a `seq` to page back from."""
    query = select(webhook_deliveries).where(webhook_deliveries.c.endpoint_id == endpoint_id)
    if status is not None:
        query = query.where(webhook_deliveries.c.status == status)
    if before is not None:
        query = query.where(webhook_deliveries.c.seq < before)
    query = query.order_by(webhook_deliveries.c.seq.desc()).limit(limit)
    return [DeliveryRecord(**row._mapping) for row in await session.execute(query)]


async def get_delivery(
    session: AsyncSession, endpoint_id: str, seq: int | None = None, *, event_id: str | None = None
) -> DeliveryRecord | None:
    """By its number, or by its event id (unique per endpoint)."""
    key = webhook_deliveries.c.seq == seq if event_id is None else webhook_deliveries.c.event_id == event_id
    query = select(webhook_deliveries).where(webhook_deliveries.c.endpoint_id == endpoint_id, key)
    row = (await session.execute(query)).first()
    return DeliveryRecord(**row._mapping) if row else None


async def due_heads(session: AsyncSession, now: datetime, limit: int) -> list[DeliveryRecord]:
    """Per enabled endpoint whose lease is free, its oldest pending delivery, if it is due."""
    heads = (
        select(func.min(webhook_deliveries.c.seq))
        .where(webhook_deliveries.c.status == PENDING)
        .group_by(webhook_deliveries.c.endpoint_id)
    )
    query = (
        select(webhook_deliveries)
        .join(webhook_endpoints, webhook_endpoints.c.id == webhook_deliveries.c.endpoint_id)
        .where(
            webhook_deliveries.c.seq.in_(heads),
            webhook_deliveries.c.next_attempt_at <= now,
            webhook_endpoints.c.enabled.is_(True),
            or_(webhook_endpoints.c.lease_until.is_(None), webhook_endpoints.c.lease_until <= now),
        )
        .order_by(webhook_deliveries.c.next_attempt_at)
        .limit(limit)
    )
    return [DeliveryRecord(**row._mapping) for row in await session.execute(query)]


async def update_delivery(session: AsyncSession, seq: int, **values: Any) -> None:
    await session.execute(update(webhook_deliveries).where(webhook_deliveries.c.seq == seq).values(**values))


async def replay(
    session: AsyncSession,
    endpoint_id: str,
    now: datetime,
    *,
    seq: int | None = None,
    between: tuple[datetime, datetime] | None = None,
) -> int:
    """Send again (pending, attempts and retry period afresh) one delivery, or those created in [start, end)."""
    condition = webhook_deliveries.c.endpoint_id == endpoint_id
    if seq is not None:
        condition = and_(condition, webhook_deliveries.c.seq == seq)
    if between is not None:
        start, end = between
        condition = and_(condition, webhook_deliveries.c.created_at >= start, webhook_deliveries.c.created_at < end)
    result = await session.execute(
        update(webhook_deliveries)
        .where(condition)
        .values(status=PENDING, attempts=0, next_attempt_at=now, first_attempt_at=None, delivered_at=None)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


# -- notices -----------------------------------------------------------------------------------------------------
async def insert_notice(session: AsyncSession, **values: Any) -> None:
    await session.execute(webhook_notices.insert().values(**values))


async def notices_of(session: AsyncSession, concessionaire_id: str, limit: int) -> list[NoticeRecord]:
    query = (
        select(webhook_notices)
        .where(webhook_notices.c.concessionaire_id == concessionaire_id)
        .order_by(webhook_notices.c.id.desc())
        .limit(limit)
    )
    return [NoticeRecord(**row._mapping) for row in await session.execute(query)]


def _endpoint(mapping: Any) -> EndpointRecord:
    return EndpointRecord(**{**mapping, "event_types": tuple(mapping["event_types"].split())})
