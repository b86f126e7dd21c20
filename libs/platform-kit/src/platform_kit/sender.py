"""Messages sent straight to the broker, for a request whose only effect is the message: a player's action, chat
line or sitting out, which the gateway forwards to the table's engine shard and keeps no state about.

The outbox is for events that report a change in the sender's database, written in the same transaction. A
command with no such change needs no table row to be durable: the answer waits for the broker's confirm
instead. That saves the request a write transaction, and the command the relay's read, publish and update
(one relay per service at a time, so under load every gateway's commands queued behind it: issue 14).

Invariant: when `send` returns, the broker holds the message (publisher confirms; the in-memory bus has queued
it). When it raises `Unavailable` (503 `bus_unavailable`, with Retry-After), the message may or may not have
been taken, and the caller may send it again: its consumers already absorb repeats (an outbox relay repeats a
message after a crash, too). A crash while waiting for the confirm leaves the caller with no answer, which it
treats the same way: it sends again.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from platform_kit import correlation
from platform_kit.bus import Envelope, Transport
from platform_kit.errors import Unavailable
from platform_kit.events.base import Event
from platform_kit.tracing import current_trace_context

log = logging.getLogger(__name__)

#: How long a request waits for the broker's confirm before it is answered 503: well under any client's time-out,
#: so that a caller always learns the outcome, and far above a confirm's usual few milliseconds.
CONFIRM_TIMEOUT_SECONDS = 5.0


def outgoing_envelope(
    event: Event, producer: str, *, occurred_at: datetime | None = None, message_id: str | None = None
) -> Envelope:
    """The envelope an event leaves this service in: the request's correlation id and trace context travel with
    it, so the consumer's logs and spans join the request's."""
    return Envelope.wrap(
        event,
        producer=producer,
        occurred_at=occurred_at,
        correlation_id=correlation.current_or_new(),
        message_id=message_id,
        trace_context=current_trace_context(),
    )


class BusUnavailable(Unavailable):
    def __init__(self) -> None:
        super().__init__(
            "bus_unavailable",
            "The message could not be handed to the platform's broker; send it again in a moment.",
        )


class ConfirmedSender:
    def __init__(self, transport: Transport, producer: str, *, timeout: float = CONFIRM_TIMEOUT_SECONDS) -> None:
        self._transport = transport
        self._producer = producer
        self._timeout = timeout

    async def send(self, event: Event, routing_key: str) -> Envelope:
        envelope = outgoing_envelope(event, self._producer)
        try:
            async with asyncio.timeout(self._timeout):
                await self._transport.publish(envelope.outgoing(routing_key))
        except Exception as error:  # unreachable, a closed channel, a nack or no confirm in time: all "try again"
            log.warning(
                "a message was not confirmed by the broker", extra={"type": envelope.type, "error": repr(error)}
            )
            raise BusUnavailable() from error
        return envelope
