"""No event lost, none applied twice: every event a service committed was published (its outbox row is marked
sent), every published message reached the inbox of every durable queue bound to it (the consumer applied it, in
the same transaction as its effect), no message ended in a dead-letter queue, and no queue still holds any.

Applied twice would show as two inbox rows for one (consumer, message id); the inbox's primary key makes that
impossible, so the effects are checked where they would double: one buy-in per player, one payout per
tournament and coupon, one rating award per player and tournament (the other modules)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from platform_kit.bus import topic_matches

from harness.broker import Binding, QueueState

EVENTS_EXCHANGE = "platform.events"


@dataclass(frozen=True)
class OutboxRow:
    service: str
    message_id: str
    routing_key: str
    published: bool


def durable_patterns(bindings: Iterable[Binding], inbox_queues: Iterable[str]) -> dict[str, list[str]]:
    """queue → its binding patterns on the events exchange, for the queues that keep an inbox (durable, shared
    by the service's replicas; per-instance fan-out queues keep none)."""
    wanted = set(inbox_queues)
    patterns: dict[str, list[str]] = {queue: [] for queue in wanted}
    for binding in bindings:
        if binding.source == EVENTS_EXCHANGE and binding.destination in wanted:
            patterns[binding.destination].append(binding.routing_key)
    return patterns


def deliveries(outbox: Sequence[OutboxRow], patterns: Mapping[str, Sequence[str]]) -> list[tuple[str, OutboxRow]]:
    """Every (queue, published row) the broker had to deliver: the queue is bound to the row's routing key."""
    return [
        (queue, row)
        for row in outbox
        if row.published
        for queue, bound in patterns.items()
        if any(topic_matches(pattern, row.routing_key) for pattern in bound)
    ]


def delivery_problems(
    outbox: Sequence[OutboxRow],
    inboxes: Mapping[str, set[str]],
    patterns: Mapping[str, Sequence[str]],
    queues: Sequence[QueueState],
) -> list[str]:
    """`inboxes`: queue (= the inbox's consumer name) → the message ids it applied."""
    problems = [
        f"{row.service}: outbox message {row.message_id} ({row.routing_key}) never published"
        for row in outbox
        if not row.published
    ]
    lost: Counter[tuple[str, str]] = Counter(
        (queue, row.routing_key)
        for queue, row in deliveries(outbox, patterns)
        if row.message_id not in inboxes.get(queue, set())
    )
    problems += [
        f"{count} × {key} from the outboxes never applied by queue {queue}"
        for (queue, key), count in sorted(lost.items())
    ]
    for state in queues:
        if state.name.endswith(".dead") and state.messages:
            problems.append(f"{state.messages} message(s) dead-lettered in {state.name}")
        elif state.messages:
            problems.append(f"{state.messages} message(s) still waiting in {state.name}")
    return problems
