"""The RabbitMQ transport on aio-pika.

- One durable topic exchange for every event; routing key = event type (or an explicit command key).
- One durable *quorum* queue per consuming service, with `x-delivery-limit`: a message whose handler keeps
  failing is dead-lettered to `<queue>.dead` after a bounded number of tries instead of looping forever.
- Publisher confirms: `publish` returns only once the broker has the message, so the outbox can mark it sent.
- Robust connections that reconnect and re-declare their topology after a broker restart: one for publishing,
  one for consuming. RabbitMQ throttles a connection whose publishes outrun the queues (flow control: it stops
  reading the socket); on a shared connection that also held back the consumers' acks, and with them the
  deliveries (RabbitMQ's own advice: separate connections for publishers and consumers). In a 3,000-player run
  one gateway's commands waited out their confirm for minutes (2,619 × 503 `bus_unavailable`) while the other
  gateway's went through and the broker logged nothing: what flow control on a shared connection looks like,
  though not proven to be it (issue 14).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Sequence

import aio_pika
from aio_pika.abc import AbstractExchange, AbstractIncomingMessage, AbstractRobustChannel, AbstractRobustConnection

from platform_kit.bus.envelope import Envelope, OutgoingMessage
from platform_kit.bus.transport import (
    BATCH_LIMIT,
    DEAD_LETTER_EXCHANGE,
    DEFAULT_MAX_DELIVERIES,
    EVENTS_EXCHANGE,
    BatchHandler,
    Handler,
    applied_as_batch,
)

log = logging.getLogger(__name__)

#: Deliveries a fan-out consumer may hold unacknowledged: enough for a burst of table events between two acks.
PER_INSTANCE_PREFETCH = 256

#: Deliveries a durable queue's consumer may hold unacknowledged: two batches, so that the broker sends the next
#: batch while this one is applied. With the prefetch equal to a batch, a consumer that fell behind took all it
#: held, and the broker sent nothing more until that batch's ack: a round trip idle per batch.
#: `bench/bench_bus.py`, consumer in its own process, 10,000 events, eight runs each: 1,622-1,822 events/s with
#: a prefetch of 32, 1,818-2,074 with 64 (issue 14).
PREFETCH = 2 * BATCH_LIMIT


class RabbitBus:
    def __init__(self, url: str, *, prefetch: int = PREFETCH) -> None:
        self._url = url
        self._prefetch = prefetch
        self._connection: AbstractRobustConnection | None = None  # the consumers'
        self._publish_connection: AbstractRobustConnection | None = None
        self._publish_channel: AbstractRobustChannel | None = None
        # The events exchange on the publishing channel, built once: a robust channel keeps its identity across
        # reconnections, so the object stays valid (it asks the channel for the live one at each publish).
        self._events: AbstractExchange | None = None
        self._workers: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._connection = await aio_pika.connect_robust(
            self._url, client_properties={"connection_name": "platform consumers"}
        )
        self._publish_connection = await aio_pika.connect_robust(
            self._url, client_properties={"connection_name": "platform publishers"}
        )
        self._publish_channel = await self._publish_connection.channel(publisher_confirms=True)
        await self._declare_exchanges(self._publish_channel)
        self._events = await self._publish_channel.get_exchange(EVENTS_EXCHANGE, ensure=False)

    async def close(self) -> None:
        for worker in self._workers:
            worker.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)
        self._workers.clear()
        for connection in (self._publish_connection, self._connection):
            if connection is not None:
                await connection.close()
        self._connection = self._publish_connection = None
        self._publish_channel = self._events = None

    async def ping(self) -> bool:
        return (
            self._connection is not None
            and not self._connection.is_closed
            and self._publish_connection is not None
            and not self._publish_connection.is_closed
            and self._publish_channel is not None
            and not self._publish_channel.is_closed
        )

    async def publish(self, message: OutgoingMessage) -> None:
        if self._events is None:
            raise RuntimeError("bus not started")
        amqp_message = aio_pika.Message(
            body=message.body,
            message_id=message.message_id,
            type=message.type,
            content_type="application/json",
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            app_id=message.producer,
        )
        # With publisher confirms on, this await returns when the broker has confirmed (or raises).
        await self._events.publish(amqp_message, routing_key=message.routing_key, timeout=10)

    async def subscribe(
        self,
        queue: str,
        patterns: Sequence[str],
        handler: Handler,
        *,
        max_deliveries: int = DEFAULT_MAX_DELIVERIES,
        concurrency: int = 1,
        per_instance: bool = False,
        batch: BatchHandler | None = None,
    ) -> None:
        if self._connection is None:
            raise RuntimeError("bus not started")
        if per_instance:
            await self._subscribe_transient(queue, patterns, handler)
            return
        # A channel per queue: a batch is acknowledged with one cumulative ack, which on a shared channel would
        # also acknowledge other queues' deliveries still being handled.
        channel = await self._connection.channel()
        await channel.set_qos(prefetch_count=self._prefetch)
        await self._declare_exchanges(channel)
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

        if batch is not None and concurrency == 1:
            waiting: asyncio.Queue[AbstractIncomingMessage] = asyncio.Queue()
            self._workers.append(
                asyncio.create_task(self._drain_in_batches(queue, waiting, handler, batch), name=f"bus-batches-{queue}")
            )
            await main.consume(waiting.put)
            return

        # aio-pika runs each delivery as its own task; the semaphore (FIFO) keeps queue order when it is 1.
        in_flight = asyncio.Semaphore(concurrency)

        async def on_message(message: AbstractIncomingMessage) -> None:
            async with in_flight:
                envelope = await _readable(message, queue)
                if envelope is not None:
                    await _handle_one(message, envelope, handler, queue)

        await main.consume(on_message)

    async def _drain_in_batches(
        self, queue: str, waiting: asyncio.Queue[AbstractIncomingMessage], handler: Handler, batch: BatchHandler
    ) -> None:
        """Everything delivered and not yet handled, up to `BATCH_LIMIT`, goes to `batch` in one call."""
        while True:
            messages = await _burst(waiting, BATCH_LIMIT)
            try:
                await self._handle_batch(queue, messages, handler, batch)
            except Exception:
                # This task is the queue's only consumer: it must outlive anything one batch does. Messages left
                # unacknowledged are redelivered by the broker.
                log.exception("consuming a batch failed", extra={"queue": queue})

    async def _handle_batch(
        self, queue: str, messages: list[AbstractIncomingMessage], handler: Handler, batch: BatchHandler
    ) -> None:
        readable = [
            (message, envelope) for message in messages if (envelope := await _readable(message, queue)) is not None
        ]
        if await applied_as_batch(batch, [envelope for _, envelope in readable], queue):
            # The batch's deliveries are the oldest this channel holds: one cumulative ack covers them all.
            await _settle(readable[-1][0].ack(multiple=True))
            return
        for message, envelope in readable:
            await _handle_one(message, envelope, handler, queue)

    async def _subscribe_transient(self, queue: str, patterns: Sequence[str], handler: Handler) -> None:
        """A fan-out copy (the gateway's table events: every instance sees every event) on a channel of its own.

        Its messages are handled in order by one task and acknowledged together: one cumulative ack (`multiple`)
        for everything handled so far instead of one frame each — acks were the largest share of a gateway's
        CPU after the requests themselves (py-spy, capacity run). A cumulative ack is only safe on a channel no
        other consumer shares, hence the channel. Nothing here is retried: a failing handler's message is
        dropped, as a transient queue's messages are with the process anyway.
        """
        assert self._connection is not None
        channel = await self._connection.channel()
        await channel.set_qos(prefetch_count=PER_INSTANCE_PREFETCH)
        transient = await channel.declare_queue(f"{queue}.{uuid.uuid4().hex[:12]}", exclusive=True, auto_delete=True)
        for pattern in patterns:
            await transient.bind(EVENTS_EXCHANGE, routing_key=pattern)
        waiting: asyncio.Queue[AbstractIncomingMessage] = asyncio.Queue()
        self._workers.append(
            asyncio.create_task(self._fan_out_in_order(queue, waiting, handler), name=f"bus-instance-{queue}")
        )
        await transient.consume(waiting.put)

    @staticmethod
    async def _fan_out_in_order(queue: str, waiting: asyncio.Queue[AbstractIncomingMessage], handler: Handler) -> None:
        while True:
            messages = await _burst(waiting, PER_INSTANCE_PREFETCH)
            for message in messages:
                try:
                    await handler(Envelope.from_bytes(message.body, message.routing_key))
                except Exception:
                    log.exception("per-instance handler failed; message dropped", extra={"queue": queue})
            # Everything up to the burst's last delivery is handled: one ack for all of it.
            await _settle(messages[-1].ack(multiple=True))

    async def _declare_exchanges(self, channel: AbstractRobustChannel) -> None:
        await channel.declare_exchange(EVENTS_EXCHANGE, aio_pika.ExchangeType.TOPIC, durable=True)
        await channel.declare_exchange(DEAD_LETTER_EXCHANGE, aio_pika.ExchangeType.TOPIC, durable=True)


async def _burst(waiting: asyncio.Queue[AbstractIncomingMessage], limit: int) -> list[AbstractIncomingMessage]:
    """The next delivery (waited for) and every one already waiting behind it, at most `limit`."""
    messages = [await waiting.get()]
    while len(messages) < limit and not waiting.empty():
        messages.append(waiting.get_nowait())
    return messages


async def _readable(message: AbstractIncomingMessage, queue: str) -> Envelope | None:
    """The message's envelope; an unreadable message is dead-lettered at once (no retry can fix it)."""
    try:
        return Envelope.from_bytes(message.body, message.routing_key)
    except ValueError:
        log.error("unreadable message dead-lettered", extra={"queue": queue})
        await _settle(message.reject(requeue=False))
        return None


async def _handle_one(message: AbstractIncomingMessage, envelope: Envelope, handler: Handler, queue: str) -> None:
    try:
        await handler(envelope)
    except Exception:
        log.exception("handler failed; message requeued", extra={"queue": queue, "message_id": envelope.id})
        await _settle(message.nack(requeue=True))
    else:
        await _settle(message.ack())


async def _settle(answer: Awaitable[None]) -> None:
    """Ack, nack or reject. On a channel that closed since the delivery (a broker restart) the answer cannot be
    given: the broker redelivers the message on the new channel, and the inbox absorbs the repeat."""
    try:
        await answer
    except Exception:  # the channel or connection closed: aiormq raises several kinds for that
        log.warning("message settled on a closed channel; the broker will redeliver it", exc_info=True)
