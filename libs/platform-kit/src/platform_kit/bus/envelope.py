"""The message envelope every event and command travels in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from platform_kit import correlation
from platform_kit.events.base import Event, model_for, routing_key_of


@dataclass(frozen=True, slots=True)
class OutgoingMessage:
    """An envelope as it goes on the wire: its serialised form, sent as it is, and the properties a broker shows
    beside it. The outbox stores envelopes serialised; its relay publishes the stored text without parsing it
    into an `Envelope` and serialising it again (issue 14), so these properties come from the outbox row's
    columns. The body is the message: a consumer reads everything it needs from it, nothing from the
    properties (the correlation id, schema version and trace context travel in the body only)."""

    body: bytes
    routing_key: str
    message_id: str
    type: str
    producer: str


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Unique message id; consumers deduplicate on it.")
    type: str = Field(description="Event type, also the routing key, e.g. `wallet.transfer.posted`.")
    schema_version: int
    occurred_at: datetime
    producer: str = Field(description="The service that published it.")
    correlation_id: str
    payload: dict[str, Any]
    trace_context: dict[str, str] = Field(
        default_factory=dict, description="W3C trace context (traceparent) of the span that produced it."
    )
    routing_key: str | None = Field(
        None, exclude=True, description="Delivery metadata, set by the transport on receipt; never serialised."
    )

    @classmethod
    def wrap(
        cls,
        event: Event,
        *,
        producer: str,
        occurred_at: datetime | None = None,
        correlation_id: str | None = None,
        message_id: str | None = None,
        trace_context: dict[str, str] | None = None,
    ) -> Envelope:
        return cls(
            id=message_id or uuid.uuid4().hex,
            type=event.TYPE,
            schema_version=event.VERSION,
            occurred_at=occurred_at or datetime.now(UTC),
            producer=producer,
            correlation_id=correlation_id or correlation.current_or_new(),
            payload=event.model_dump(mode="json"),
            trace_context=trace_context or {},
        )

    def event(self) -> Event:
        """The payload parsed into its registered model."""
        return model_for(self.type).model_validate(self.payload)

    def outgoing(self, routing_key: str | None = None) -> OutgoingMessage:
        """This envelope ready to publish, under `routing_key` or by default its type's."""
        return OutgoingMessage(
            body=self.to_bytes(),
            routing_key=routing_key or routing_key_of(self.type),
            message_id=self.id,
            type=self.type,
            producer=self.producer,
        )

    def to_bytes(self) -> bytes:
        return self.model_dump_json().encode()

    @classmethod
    def from_bytes(cls, body: bytes, routing_key: str | None = None) -> Envelope:
        envelope = cls.model_validate_json(body)
        return envelope.model_copy(update={"routing_key": routing_key}) if routing_key else envelope

    def delivered_as(self, routing_key: str) -> Envelope:
        return self.model_copy(update={"routing_key": routing_key})
