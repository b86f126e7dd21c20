"""The RabbitMQ transport on aio-pika.

- One durable topic exchange for every event; routing key = event type (or an explicit command key).
- One durable *quorum* queue per consuming service, with `x-delivery-limit`: a message whose handler keeps
  failing is dead-lettered to `<queue>.dead` after a bounded number of tries instead of looping forever.
- Publisher confirms: `publish` returns only once the broker has the message, so the outbox can mark it sent.
- A robust connection that reconnects and re-declares its topology after a broker restart.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Sequence

import aio_pika
from aio_pika.abc import AbstractIncomingMessage, AbstractRobustChannel, AbstractRobustConnection

from platform_kit.bus.envelope import Envelope
from platform_kit.bus.transport import (
    DEAD_LETTER_EXCHANGE,
    DEFAULT_MAX_DELIVERIES,
    EVENTS_EXCHANGE,
    Handler,
)

log = logging.getLogger(__name__)


class RabbitBus:
    def __init__(self, url: str, *, prefetch: int = 32) -> None:
        self._url = url
        self._prefetch = prefetch
        self._connection: AbstractRobustConnection | None = None
        self._publish_channel: AbstractRobustChannel | None = None
        self._consume_channel: AbstractRobustChannel | None = None

    async def start(self) -> None:
        self._connection = await aio_pika.connect_robust(self._url, client_properties={"connection_name": "platform"})
        self._publish_channel = await self._connection.channel(publisher_confirms=True)
        self._consume_channel = await self._connection.channel()
        await self._consume_channel.set_qos(prefetch_count=self._prefetch)
        await self._declare_exchanges(self._publish_channel)

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    async def ping(self) -> bool:
        return (
            self._connection is not None
            and not self._connection.is_closed
            and self._publish_channel is not None
            and not self._publish_channel.is_closed
        )

    async def publish(self, envelope: Envelope, routing_key: str | None = None) -> None:
        if self._publish_channel is None:
            raise RuntimeError("bus not started")
        exchange = await self._publish_channel.get_exchange(EVENTS_EXCHANGE, ensure=False)
        message = aio_pika.Message(
            body=envelope.to_bytes(),
            message_id=envelope.id,
            type=envelope.type,
            correlation_id=envelope.correlation_id,
            content_type="application/json",
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            app_id=envelope.producer,
            headers={"schema_version": envelope.schema_version},
        )
        # With publisher confirms on, this await returns when the broker has confirmed (or raises).
        await exchange.publish(message, routing_key=routing_key or envelope.type, timeout=10)

    async def subscribe(
        self,
        queue: str,
        patterns: Sequence[str],
        handler: Handler,
        *,
        max_deliveries: int = DEFAULT_MAX_DELIVERIES,
        concurrency: int = 1,
        per_instance: bool = False,
    ) -> None:
        channel = self._consume_channel
        if channel is None:
            raise RuntimeError("bus not started")
        await self._declare_exchanges(channel)
        if per_instance:
            await self._subscribe_transient(channel, queue, patterns, handler)
            return
        dead = await channel.declare_queue(f"{queue}.dead", durable=True, arguments={"x-queue-type": "quorum"})
        await dead.bind(DEAD_LETTER_EXCHANGE, routing_key=queue)
        main = await channel.declare_queue(
            queue,
            durable=True,
            arguments={
                "x-queue-type": "quorum",
                "x-delivery-limit": max_deliveries - 1,  # redeliveries after the first try
                "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE,
                "x-dead-letter-routing-key": queue,
            },
        )
        for pattern in patterns:
            await main.bind(EVENTS_EXCHANGE, routing_key=pattern)

        # aio-pika runs each delivery as its own task; the semaphore (FIFO) keeps queue order when it is 1.
        in_flight = asyncio.Semaphore(concurrency)

        async def on_message(message: AbstractIncomingMessage) -> None:
            async with in_flight:
                await handle(message)

        async def handle(message: AbstractIncomingMessage) -> None:
            try:
                envelope = Envelope.from_bytes(message.body, message.routing_key)
            except ValueError:
                log.error("unreadable message dead-lettered", extra={"queue": queue})
                await message.reject(requeue=False)
                return
            try:
                await handler(envelope)
            except Exception:
                log.exception("handler failed; message requeued", extra={"queue": queue, "message_id": envelope.id})
                await message.nack(requeue=True)
            else:
                await message.ack()

        await main.consume(on_message)

    async def _subscribe_transient(
        self, channel: AbstractRobustChannel, queue: str, patterns: Sequence[str], handler: Handler
    ) -> None:
        transient = await channel.declare_queue(f"{queue}.{uuid.uuid4().hex[:12]}", exclusive=True, auto_delete=True)
        for pattern in patterns:
            await transient.bind(EVENTS_EXCHANGE, routing_key=pattern)
        in_order = asyncio.Lock()

        async def on_message(message: AbstractIncomingMessage) -> None:
            async with in_order, message.process(ignore_processed=True):
                try:
                    await handler(Envelope.from_bytes(message.body, message.routing_key))
                except Exception:
                    log.exception("per-instance handler failed; message dropped", extra={"queue": queue})

        await transient.consume(on_message)

    async def _declare_exchanges(self, channel: AbstractRobustChannel) -> None:
        await channel.declare_exchange(EVENTS_EXCHANGE, aio_pika.ExchangeType.TOPIC, durable=True)
        await channel.declare_exchange(DEAD_LETTER_EXCHANGE, aio_pika.ExchangeType.TOPIC, durable=True)
