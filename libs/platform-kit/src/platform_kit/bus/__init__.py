"""The event bus: envelope, transports (RabbitMQ and in-memory), transactional outbox and idempotent inbox."""

from platform_kit.bus.envelope import Envelope, OutgoingMessage
from platform_kit.bus.memory import InMemoryBus
from platform_kit.bus.transport import BatchHandler, Handler, Transport, topic_matches


def transport_for(url: str) -> Transport:
    """`memory://` gives a private in-memory bus; `amqp://…` the RabbitMQ transport."""
    if url.startswith("memory://"):
        return InMemoryBus()
    if url.startswith(("amqp://", "amqps://")):
        from platform_kit.bus.rabbitmq import RabbitBus

        return RabbitBus(url)
    raise ValueError(f"unsupported bus url {url!r}: use memory:// or amqp://")


__all__ = [
    "BatchHandler",
    "Envelope",
    "Handler",
    "InMemoryBus",
    "OutgoingMessage",
    "Transport",
    "topic_matches",
    "transport_for",
]
