"""The interface of a message transport; RabbitMQ in deployment, in-memory in standalone mode and unit tests."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from platform_kit.bus.envelope import Envelope, OutgoingMessage

log = logging.getLogger(__name__)

Handler = Callable[[Envelope], Awaitable[None]]
BatchHandler = Callable[[Sequence[Envelope]], Awaitable[None]]

EVENTS_EXCHANGE = "platform.events"
DEAD_LETTER_EXCHANGE = "platform.dead-letter"
DEFAULT_MAX_DELIVERIES = 5

#: The most messages a consumer applies in one batch (one transaction), in either transport.
BATCH_LIMIT = 32


class Transport(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...

    async def publish(self, message: OutgoingMessage) -> None:
        """Return only once the broker has taken responsibility for the message (publisher confirm). The body
        goes out byte for byte as given; subscribers receive it parsed into an `Envelope`."""

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
        """Deliver every message whose routing key matches one of `patterns` (AMQP topic syntax) to `handler`.

        A handler that raises is retried; after `max_deliveries` tries the message goes to the dead-letter
        queue `<queue>.dead`. With `concurrency` 1 (the default) messages are handled one at a time in queue
        order; a consumer whose effects commute may allow more in flight for throughput.

        `per_instance` gives this process its own transient queue (deleted when it disconnects) instead of a
        durable queue shared by the service's replicas: for fan-out, e.g. every gateway forwarding table events
        to its own WebSocket clients. Nothing is retried or dead-lettered there.

        `batch` (with `concurrency` 1) takes every message already waiting, up to `BATCH_LIMIT`, in one call, in
        queue order: a consumer applies them in one transaction instead of one each. A batch that raises is
        handed to `handler` again one message at a time, with the usual retries and dead-lettering, so a poison
        message cannot hold up its neighbours and every message keeps its own fate.
        """


async def applied_as_batch(batch: BatchHandler | None, envelopes: Sequence[Envelope], queue: str) -> bool:
    """Hand several waiting messages to `batch` at once; False when there is no batch to make (no batch handler,
    a single message) or it failed, and the transport must hand them over one at a time."""
    if batch is None or len(envelopes) < 2:
        return False
    try:
        await batch(envelopes)
    except Exception:
        log.warning("batch failed; handling its messages one at a time", extra={"queue": queue}, exc_info=True)
        return False
    return True


@functools.lru_cache(maxsize=4096)
def topic_matches(pattern: str, routing_key: str) -> bool:
    """AMQP topic matching: `*` is exactly one word, `#` is zero or more words.

    Remembered: every message a service takes is matched against each of its patterns (`runtime`), and the
    patterns and routing keys (event types) are a few dozen each. A gateway matches each table event against its
    four fan-out patterns: 3.3 µs word by word, 0.5 µs remembered."""
    return _match(pattern.split("."), routing_key.split("."))


def _match(pattern: list[str], words: list[str]) -> bool:
    if not pattern:
        return not words
    head, rest = pattern[0], pattern[1:]
    if head == "#":
        return any(_match(rest, words[i:]) for i in range(len(words) + 1))
    if not words:
        return False
    return (head in ("*", words[0])) and _match(rest, words[1:])
