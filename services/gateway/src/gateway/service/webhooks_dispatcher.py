"""The background sender of the delivery outbox (`runtime.in_background(dispatcher.run)`): at least once, in
order per endpoint, retried with backoff and jitter for a bounded period, then failed; an endpoint failing for
long is disabled and its partner told (a notice, and the flag in the endpoint's view).

Each round takes, per enabled endpoint, its oldest pending delivery if it is due, under the endpoint's lease
(so no two gateway instances send one endpoint's deliveries at once), sends it signed with the endpoint's
secrets in force, and records the answer. A delivery is delivered only on a 2xx answer; until then nothing newer
of that endpoint is sent (order). A crash between the partner's answer and the record means the delivery is
sent again: the partner deduplicates on `Webhook-Id`. Time (`clock`) and the jitter's randomness (`draw`) are
injected; rounds run when woken (a delivery queued) and every `poll_seconds`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from platform_kit.clock import Clock
from platform_kit.unit_of_work import UnitsOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import webhook_store
from gateway.adapters.webhook_store import DELIVERED, FAILED, PENDING, DeliveryRecord, EndpointRecord
from gateway.domain.webhook_retry import RetryPolicy
from gateway.domain.webhook_signing import headers
from gateway.service.webhooks_sender import Answer, WebhookSender

log = logging.getLogger(__name__)

DISABLED_NOTICE = "endpoint_disabled"
NOTICE_EN = "Webhook endpoint {url} was disabled: every delivery failed since {since}. Fix it, then enable it again."
NOTICE_IT = (
    "L'endpoint webhook {url} è stato disattivato: ogni consegna è fallita dal {since}. Correggetelo, poi riattivatelo."
)


class WebhookDispatcher:
    def __init__(
        self,
        units: UnitsOfWork,
        clock: Clock,
        sender: WebhookSender,
        retry: RetryPolicy,
        draw: Callable[[], float],
        *,
        poll_seconds: float,
        lease: timedelta,
        batch: int = 50,
    ) -> None:
        self._units = units
        self._clock = clock
        self._sender = sender
        self._retry = retry
        self._draw = draw
        self._poll_seconds = poll_seconds
        self._lease = lease
        self._batch = batch
        self._woken = asyncio.Event()

    def wake(self) -> None:
        self._woken.set()

    async def run(self) -> None:
        try:
            while True:
                self._woken.clear()
                if not await self.dispatch_due():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._woken.wait(), self._poll_seconds)
        finally:
            await self._sender.aclose()

    async def dispatch_due(self) -> int:
        """One round; the number of attempts made."""
        async with self._units.reading() as session:
            heads = await webhook_store.due_heads(session, self._clock.now(), self._batch)
        made = await asyncio.gather(*(self._attempt(head) for head in heads))
        return sum(made)

    async def _attempt(self, head: DeliveryRecord) -> bool:
        claimed = await self._claim(head)
        if claimed is None:
            return False
        endpoint, delivery = claimed
        try:
            now = self._clock.now()
            timestamp = int(now.timestamp())
            body = delivery.body.encode()
            signed = headers(
                event_id=delivery.event_id,
                event_type=delivery.event_type,
                timestamp=timestamp,
                body=body,
                secrets=endpoint.signing_secrets(now),
            )
            answer = await self._sender.send(endpoint.url, signed, body)
        except BaseException:
            await asyncio.shield(self._release(endpoint.id))
            raise
        await self._record(endpoint, delivery, answer, attempted_at=now)
        return True

    async def _claim(self, head: DeliveryRecord) -> tuple[EndpointRecord, DeliveryRecord] | None:
        now = self._clock.now()
        async with self._units.unit() as uow:
            if not await webhook_store.claim(uow.session, head.endpoint_id, now, now + self._lease):
                return None
            endpoint = await webhook_store.endpoint_by_id(uow.session, head.endpoint_id)
            delivery = await webhook_store.get_delivery(uow.session, head.endpoint_id, head.seq)
        if endpoint is None or delivery is None or delivery.status != PENDING:
            await self._release(head.endpoint_id)  # sent meanwhile by another instance, or deleted
            return None
        return endpoint, delivery

    async def _release(self, endpoint_id: str) -> None:
        async with self._units.unit() as uow:
            await webhook_store.update_endpoint(uow.session, endpoint_id, lease_until=None)

    async def _record(
        self, endpoint: EndpointRecord, delivery: DeliveryRecord, answer: Answer, *, attempted_at: datetime
    ) -> None:
        now = self._clock.now()
        outcome: dict[str, object] = {
            "attempts": delivery.attempts + 1,
            "first_attempt_at": delivery.first_attempt_at or attempted_at,
            "last_attempt_at": attempted_at,
            "last_status_code": answer.status_code,
            "last_error": answer.error,
        }
        endpoint_values: dict[str, object] = {"lease_until": None}
        async with self._units.unit() as uow:
            if answer.ok:
                outcome.update(status=DELIVERED, delivered_at=now)
                endpoint_values["failing_since"] = None
            else:
                outcome.update(self._after_failure(delivery, now))
                failing_since = endpoint.failing_since or now
                endpoint_values["failing_since"] = failing_since
                if self._retry.should_disable(failing_since, now):
                    endpoint_values.update(enabled=False, disabled_reason="failing", disabled_at=now)
                    await self._tell_partner(uow.session, endpoint, failing_since)
            await webhook_store.update_delivery(uow.session, delivery.seq, **outcome)
            await webhook_store.update_endpoint(uow.session, endpoint.id, **endpoint_values)

    def _after_failure(self, delivery: DeliveryRecord, now: datetime) -> dict[str, object]:
        first = delivery.first_attempt_at or now
        next_at = self._retry.next_attempt(
            first_attempt_at=first,
            now=now,
            failed_attempts=delivery.attempts + 1,
            draw=self._draw(),
        )
        if next_at is None:
            log.warning("webhook delivery failed for good", extra={"delivery": delivery.seq})
            return {"status": FAILED}
        return {"status": PENDING, "next_attempt_at": next_at}

    async def _tell_partner(self, session: AsyncSession, endpoint: EndpointRecord, since: datetime) -> None:
        log.warning("webhook endpoint disabled: failing", extra={"endpoint_id": endpoint.id})
        values = {"url": endpoint.url, "since": since.isoformat()}
        await webhook_store.insert_notice(
            session,
            concessionaire_id=endpoint.concessionaire_id,
            endpoint_id=endpoint.id,
            kind=DISABLED_NOTICE,
            message_en=NOTICE_EN.format(**values),
            message_it=NOTICE_IT.format(**values),
            created_at=self._clock.now(),
        )
