"""Partner webhook endpoints, managed by a concessionaire's staff or its partner systems (issue 16): register,
list, change, disable and enable, delete, rotate the secret, read the delivery log, replay, ping.

Every use case first checks that the caller manages the concessionaire (`require_manages`), then finds the
endpoint within that concessionaire only: another's endpoint is as absent as a missing one. The secret is shown
once, in the answer that creates it; a rotation keeps the previous secret signing for an overlap window, so the
partner can switch without losing a delivery. Deliveries are written and sent elsewhere (webhooks_intake,
webhooks_dispatcher); here they are read and queued again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from platform_kit.errors import NotFound, ProblemError
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store, webhook_store
from gateway.adapters.webhook_store import DeliveryRecord, EndpointRecord, NoticeRecord
from gateway.domain.roles import Principal
from gateway.domain.webhook_events import PING, PartnerEventType, delivery_body
from gateway.domain.webhook_signing import SECRET_PREFIX
from gateway.domain.webhook_urls import EndpointUrlRefused, UrlPolicy
from gateway.service.access import require_manages
from gateway.service.context import Context

MAX_OVERLAP = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class EndpointChange:
    """What a PATCH changes; None leaves it as it is."""

    url: str | None = None
    event_types: Sequence[PartnerEventType] | None = None
    description: str | None = None
    enabled: bool | None = None


@dataclass(frozen=True, slots=True)
class WithSecret:
    endpoint: EndpointRecord
    secret: str  # the only time it leaves the gateway


class Webhooks:
    def __init__(self, context: Context, urls: UrlPolicy, wake_dispatcher: Callable[[], None]) -> None:
        self._context = context
        self._urls = urls
        self._wake = wake_dispatcher

    async def create(
        self, by: Principal, concessionaire_id: str, url: str, event_types: Sequence[PartnerEventType], description: str
    ) -> WithSecret:
        require_manages(by, concessionaire_id)
        secret = self._new_secret()
        record = EndpointRecord(
            id=self._context.secrets.new_id(),
            concessionaire_id=concessionaire_id,
            url=self._checked(url),
            event_types=_types(event_types),
            description=description,
            secret=secret,
            previous_secret=None,
            previous_secret_until=None,
            enabled=True,
            disabled_reason=None,
            disabled_at=None,
            failing_since=None,
            lease_until=None,
            created_by=by.key,
            created_at=self._context.clock.now(),
        )
        async with self._context.units.unit() as uow:
            await identity_store.require_concessionaire(uow.session, concessionaire_id)
            await webhook_store.insert_endpoint(uow.session, record)
        return WithSecret(record, secret)

    async def of_concessionaire(self, by: Principal, concessionaire_id: str) -> list[EndpointRecord]:
        require_manages(by, concessionaire_id)
        async with self._context.units.reading() as session:
            return await webhook_store.endpoints_of(session, concessionaire_id)

    async def get(self, by: Principal, concessionaire_id: str, endpoint_id: str) -> EndpointRecord:
        require_manages(by, concessionaire_id)
        async with self._context.units.reading() as session:
            return await _endpoint(session, concessionaire_id, endpoint_id)

    async def change(
        self, by: Principal, concessionaire_id: str, endpoint_id: str, change: EndpointChange
    ) -> EndpointRecord:
        """Enabling clears the failure record: the dispatcher starts again from the oldest pending delivery."""
        require_manages(by, concessionaire_id)
        values: dict[str, object] = {}
        if change.url is not None:
            values["url"] = self._checked(change.url)
        if change.event_types is not None:
            values["event_types"] = _types(change.event_types)
        if change.description is not None:
            values["description"] = change.description
        async with self._context.units.unit() as uow:
            endpoint = await _endpoint(uow.session, concessionaire_id, endpoint_id)
            if change.enabled is True:
                values.update(enabled=True, disabled_reason=None, disabled_at=None, failing_since=None)
            elif change.enabled is False and endpoint.enabled:  # disabling twice keeps the first reason and time
                values.update(enabled=False, disabled_reason="by_request", disabled_at=self._context.clock.now())
            if values:
                await webhook_store.update_endpoint(uow.session, endpoint_id, **values)
            endpoint = await _endpoint(uow.session, concessionaire_id, endpoint_id)
        if change.enabled:
            self._wake()
        return endpoint

    async def delete(self, by: Principal, concessionaire_id: str, endpoint_id: str) -> None:
        require_manages(by, concessionaire_id)
        async with self._context.units.unit() as uow:
            await _endpoint(uow.session, concessionaire_id, endpoint_id)
            await webhook_store.delete_endpoint(uow.session, endpoint_id)

    async def rotate(self, by: Principal, concessionaire_id: str, endpoint_id: str, overlap: timedelta) -> WithSecret:
        """A new secret signs at once; the one it replaces signs too until `overlap` is over (0: at once no
        more). A rotation during another's overlap ends that one: only two secrets sign at a time."""
        require_manages(by, concessionaire_id)
        if not timedelta(0) <= overlap <= MAX_OVERLAP:
            raise ProblemError("overlap_out_of_range", "The overlap is 0 to 7 days.", status=422)
        secret = self._new_secret()
        now = self._context.clock.now()
        async with self._context.units.unit() as uow:
            endpoint = await _endpoint(uow.session, concessionaire_id, endpoint_id)
            await webhook_store.update_endpoint(
                uow.session,
                endpoint_id,
                secret=secret,
                previous_secret=endpoint.secret,
                previous_secret_until=now + overlap,
            )
            endpoint = await _endpoint(uow.session, concessionaire_id, endpoint_id)
        return WithSecret(endpoint, secret)

    async def deliveries(
        self,
        by: Principal,
        concessionaire_id: str,
        endpoint_id: str,
        *,
        status: str | None,
        limit: int,
        before: int | None,
    ) -> list[DeliveryRecord]:
        require_manages(by, concessionaire_id)
        async with self._context.units.reading() as session:
            await _endpoint(session, concessionaire_id, endpoint_id)
            return await webhook_store.deliveries_of(session, endpoint_id, status=status, limit=limit, before=before)

    async def replay_one(self, by: Principal, concessionaire_id: str, endpoint_id: str, seq: int) -> DeliveryRecord:
        """Sent again with the same event id (the partner's deduplication still holds), in its original place
        in the endpoint's order."""
        require_manages(by, concessionaire_id)
        async with self._context.units.unit() as uow:
            await _endpoint(uow.session, concessionaire_id, endpoint_id)
            if not await webhook_store.replay(uow.session, endpoint_id, self._context.clock.now(), seq=seq):
                raise NotFound("webhook_delivery_not_found", "The endpoint has no such delivery.")
            delivery = await webhook_store.get_delivery(uow.session, endpoint_id, seq)
        assert delivery is not None
        self._wake()
        return delivery

    async def replay_range(
        self, by: Principal, concessionaire_id: str, endpoint_id: str, start: datetime, end: datetime
    ) -> int:
        """Every delivery queued in [start, end), in their order; the number queued again."""
        require_manages(by, concessionaire_id)
        if end <= start:
            raise ProblemError("replay_range_empty", "`until` must come after `since`.", status=422)
        async with self._context.units.unit() as uow:
            await _endpoint(uow.session, concessionaire_id, endpoint_id)
            count = await webhook_store.replay(
                uow.session, endpoint_id, self._context.clock.now(), between=(start, end)
            )
        self._wake()
        return count

    async def ping(self, by: Principal, concessionaire_id: str, endpoint_id: str) -> DeliveryRecord:
        """A `webhook.ping` delivery, queued behind the endpoint's pending ones, signed like any other."""
        require_manages(by, concessionaire_id)
        now = self._context.clock.now()
        event_id = f"evt_ping_{self._context.secrets.new_id()}"
        body = delivery_body(
            event_id=event_id,
            event_type=PING,
            occurred_at=now,
            concessionaire_id=concessionaire_id,
            data={"endpoint_id": endpoint_id},
        )
        async with self._context.units.unit() as uow:
            await _endpoint(uow.session, concessionaire_id, endpoint_id)
            await webhook_store.insert_deliveries(
                uow.session, [webhook_store.delivery_row(endpoint_id, event_id, PING, body, now)]
            )
            delivery = await webhook_store.get_delivery(uow.session, endpoint_id, event_id=event_id)
        assert delivery is not None
        self._wake()
        return delivery

    async def notices(self, by: Principal, concessionaire_id: str, limit: int) -> list[NoticeRecord]:
        require_manages(by, concessionaire_id)
        async with self._context.units.reading() as session:
            return await webhook_store.notices_of(session, concessionaire_id, limit)

    def _checked(self, url: str) -> str:
        try:
            return self._urls.check(url)
        except EndpointUrlRefused as refused:
            raise ProblemError(refused.code, refused.message, status=422) from None

    def _new_secret(self) -> str:
        return SECRET_PREFIX + self._context.secrets.refresh_token()  # 256 random bits, URL-safe


def _types(event_types: Sequence[PartnerEventType]) -> tuple[str, ...]:
    if not event_types:
        raise ProblemError("webhook_event_types_empty", "Choose at least one event type.", status=422)
    return tuple(sorted({str(event_type) for event_type in event_types}))


async def _endpoint(session: AsyncSession, concessionaire_id: str, endpoint_id: str) -> EndpointRecord:
    endpoint = await webhook_store.get_endpoint(session, endpoint_id, concessionaire_id)
    if endpoint is None:
        raise NotFound("webhook_endpoint_not_found", "The concessionaire has no such webhook endpoint.")
    return endpoint
