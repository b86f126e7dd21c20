"""What taking one table event off a gateway's per-instance queue costs its event loop (issue 14), in process and
without a broker: the body parsed into an envelope, the consumer's telemetry (trace context, correlation id, the
message's age), the dispatch to the fan-out, and the fan-out onto the sockets of the table's players on this
instance (numbered, logged for replay, encoded once, queued; the WebSocket writes that follow are not counted).
Every gateway instance does this for every table event: a 3,000-player tournament publishes ~200,000.

Peers in the same run, each a part of the whole: the body parsed alone (pydantic, as `Envelope.from_bytes`), the
telemetry alone for a producer's trace that is not sampled (the default without an exporter) and for a message
with no trace context, and `json.loads` of the body (the floor of reading it at all).

    uv run python bench/bench_event_intake.py [--events 20000] [--sockets 5]

CPU time of this process per event, the best of three runs; the machine's other work shows only in that column.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from gateway.domain.channels import SocketKind
from gateway.domain.roles import Principal, Role
from gateway.service.fanout import PATTERNS, StreamFanout
from gateway.service.hub import Hub
from gateway.service.lobby_news import LobbyNews
from platform_kit.bus import Envelope, topic_matches
from platform_kit.events.table import ActionTaken
from platform_kit.tracing import ConsumerTelemetry, current_trace_context, tracer_provider
from prometheus_client import CollectorRegistry

ROUTING_KEY = ActionTaken.TYPE


def bodies(count: int, trace_context: dict[str, str]) -> list[bytes]:
    payload = {
        "table_id": "t-1", "tournament_id": "T-1", "hand_id": "h-1", "seat": 3, "player_id": "p-1",
        "action": "raise", "amount": 400, "to_call": 200, "pot": 1_200, "stack": 5_000,
    }  # fmt: skip
    return [
        Envelope(
            id=f"m-{n}",
            type=ActionTaken.TYPE,
            schema_version=1,
            occurred_at=datetime.now(UTC),
            producer="table-engine",
            correlation_id=f"c-{n}",
            payload=payload,
            trace_context=trace_context,
        ).to_bytes()
        for n in range(count)
    ]


async def intake(sockets: int, telemetry: ConsumerTelemetry) -> Callable[[bytes], Awaitable[None]]:
    """The gateway's per-instance path, wired as `bootstrap` and `runtime` wire it, with `sockets` players."""
    hub = Hub(replay_capacity=500, send_queue_size=10**7, new_epoch=lambda: "epoch")
    fanout = StreamFanout(hub, LobbyNews(hub, 0.0))
    for n in range(sockets):
        connection = hub.connect(Principal(Role.PLAYER, f"p-{n}", "c-1", f"P{n}"), SocketKind.TABLE)
        await hub.subscribe(connection, "table:t-1")

    async def dispatch(envelope: Envelope) -> None:  # ServiceRuntime._broadcast_dispatcher
        if any(topic_matches(pattern, ROUTING_KEY) for pattern in PATTERNS):
            await fanout(envelope)

    handle = telemetry.wrap("gateway.instance", dispatch)

    async def take(body: bytes) -> None:  # RabbitBus._fan_out_in_order
        await handle(Envelope.from_bytes(body, ROUTING_KEY))

    return take


async def cost(each: Callable[[Any], Awaitable[object] | object], messages: Sequence[Any]) -> float:
    """CPU µs per message, the best of three runs."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for body in messages:
            outcome = each(body)
            if asyncio.iscoroutine(outcome):
                await outcome
        best = min(best, time.process_time() - started)
    return best / len(messages) * 1e6


async def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--events", type=int, default=20_000)
    arguments.add_argument("--sockets", type=int, default=5, help="the table's players on this instance")
    options = arguments.parse_args()
    provider = tracer_provider("gateway")  # no exporter: nothing sampled, as in the capacity runs
    with provider.get_tracer(__name__).start_as_current_span("table-engine"):
        unsampled = bodies(options.events, current_trace_context())
    untraced = bodies(options.events, {})
    telemetry = ConsumerTelemetry(provider, CollectorRegistry())

    async def nothing(_: Envelope) -> None:
        return None

    bare = telemetry.wrap("gateway.instance", nothing)
    rows = [
        (f"the whole path, {options.sockets} sockets", await cost(await intake(options.sockets, telemetry), unsampled)),
        ("peer: the body parsed (Envelope.from_bytes)", await cost(lambda b: Envelope.from_bytes(b, ROUTING_KEY), unsampled)),
        ("peer: the telemetry alone, trace not sampled", await cost(bare, [Envelope.from_bytes(b) for b in unsampled])),
        ("peer: the telemetry alone, no trace context", await cost(bare, [Envelope.from_bytes(b) for b in untraced])),
        ("peer: json.loads of the body", await cost(json.loads, unsampled)),
    ]  # fmt: skip
    print(f"| {options.events:,} table events | CPU µs per event |")
    print("|---|---|")
    for label, micros in rows:
        print(f"| {label} | {micros:.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
