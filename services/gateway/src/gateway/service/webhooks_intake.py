"""The platform events partners subscribe to, turned into deliveries in the transaction that consumes them.

`runtime.on(type, intake.consume)` for each of `SOURCE_TYPES`: the inbox records the message in the same
transaction as its deliveries, so each partner event is queued exactly once per endpoint whatever the bus
redelivers (and the unique (endpoint, event id) pair would refuse a second). Who gets what is the domain's rule
(domain/webhook_events.py); this module looks up the players' concessionaires and the endpoints subscribed, and
wakes the dispatcher once the transaction has committed.

An event no endpoint could want (none chose any type it may become) is dropped before it is parsed: every money
move and every coupon's outcome comes here, mostly on a network where few partners take them (issue 14: 14 % of
a gateway's samples in a totalizator's closing rush with no endpoint at all). The subscriptions are read in the
consuming transaction, as the endpoints are, so an endpoint gets every event consumed after its registration
committed, as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from platform_kit.bus import Envelope
from platform_kit.clock import Clock
from platform_kit.db import after_commit
from platform_kit.events import EVENT_TYPES
from platform_kit.events.base import PRIVATE_PREFIX
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import webhook_store
from gateway.domain.webhook_events import (
    PartnerEvent,
    delivery_body,
    may_become,
    partner_event_id,
    partner_events,
    players_named,
)

#: Players whose concessionaire an intake remembers (a player never changes concessionaire); past it, it forgets
#: them all and starts again (about 15 MB at most).
REMEMBERED_PLAYERS = 100_000

T = TypeVar("T")


class WebhookIntake:
    def __init__(self, clock: Clock, wake_dispatcher: Callable[[], None]) -> None:
        self._clock = clock
        self._wake = wake_dispatcher
        # Every money move names its players (the wallet's `operation.posted`: one per coupon staked in a closing
        # rush), so asking the database each time was a read per event (issue 14).
        self._concessionaire_of: dict[str, str] = {}

    async def consume(self, session: AsyncSession, envelope: Envelope) -> None:
        model = EVENT_TYPES.get(envelope.type)
        if model is None or model.PRIVATE or (envelope.routing_key or "").startswith(PRIVATE_PREFIX):
            return  # never a private event, whatever binding brought it
        wanted = await _types_subscribed(session)
        if not may_become(envelope.type) & wanted:
            return
        event = envelope.event()
        concessionaire_of = await self._concessionaires(session, players_named(event))
        deliveries: list[dict[str, Any]] = []
        for partner_event in partner_events(event, concessionaire_of):
            if partner_event.type in wanted:
                deliveries += await self._deliveries(session, envelope, partner_event)
        if deliveries:
            await webhook_store.insert_deliveries(session, deliveries)
            after_commit(session, self._wake)

    async def _concessionaires(self, session: AsyncSession, player_ids: set[str]) -> dict[str, str]:
        """Player id -> concessionaire id for the players the gateway knows among these; only those not seen
        before are read (one not known yet is read again next time: it may sign up meanwhile)."""
        # Not `player_ids - self._concessionaire_of.keys()`: a set minus a dict's keys walks every key remembered
        # (1.35 ms an event at 100,000 players), this walks the event's few.
        unknown = {player_id for player_id in player_ids if player_id not in self._concessionaire_of}
        if unknown:
            found = await webhook_store.player_concessionaires(session, unknown)
            if len(self._concessionaire_of) + len(found) > REMEMBERED_PLAYERS:
                self._concessionaire_of.clear()
            self._concessionaire_of.update(found)
        return {p: self._concessionaire_of[p] for p in player_ids if p in self._concessionaire_of}

    async def _deliveries(
        self, session: AsyncSession, envelope: Envelope, partner_event: PartnerEvent
    ) -> list[dict[str, Any]]:
        """A delivery of the partner event for each endpoint subscribed to it."""
        now = self._clock.now()
        rows = []
        for endpoint in await _subscribed(session, partner_event):
            event_id = partner_event_id(envelope.id, partner_event.type, endpoint.concessionaire_id)
            body = delivery_body(
                event_id=event_id,
                event_type=partner_event.type,
                occurred_at=envelope.occurred_at,
                concessionaire_id=endpoint.concessionaire_id,
                data=partner_event.data,
            )
            rows.append(webhook_store.delivery_row(endpoint.id, event_id, partner_event.type, body, now))
        return rows


async def _types_subscribed(session: AsyncSession) -> frozenset[str]:
    """The event types endpoints chose."""
    return await _once_per_transaction(session, ("webhook_types",), lambda: webhook_store.subscribed_types(session))


async def _subscribed(session: AsyncSession, partner_event: PartnerEvent) -> list[webhook_store.EndpointRecord]:
    """The endpoints a partner event goes to, for its concessionaire and type."""
    targets = None if partner_event.concessionaire_id is None else {partner_event.concessionaire_id}
    key = ("webhook_endpoints", partner_event.concessionaire_id, partner_event.type)
    return await _once_per_transaction(
        session, key, lambda: webhook_store.subscribed(session, targets, partner_event.type)
    )


async def _once_per_transaction(session: AsyncSession, key: tuple[object, ...], read: Callable[[], Awaitable[T]]) -> T:
    """What `read()` answers, asked once per transaction under `key`: the inbox applies waiting messages together,
    and a settled draw's thousands of coupon outcomes ask alike."""
    if key not in session.info:
        session.info[key] = await read()
    answer: T = session.info[key]
    return answer
