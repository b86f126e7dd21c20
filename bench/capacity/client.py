"""The bots' connection to the gateway: the e2e harness's `Session` and `Stream` (`harness.client`), over an
httpx client that meters every attempt and waits out refusals, and sends them over aiohttp
(`platform_kit.aiohttp_sender`): with httpx's own transport a request cost a load generator 5-6 ms of CPU at 200
in flight, over aiohttp 0.6 ms (bench/bench_internal_client.py), CPU the platform it measures lost on the shared
cores (issue 14).

A 429, or a 503 with Retry-After, is the platform shedding load: the client waits the seconds it asks for and
sends the same request again (same Idempotency-Key), counting it as refused, not as an error. Everything else is
counted by class (2xx, 4xx, 5xx, timeout, other transport error) and then handled as the e2e session handles
it: 502/503/504 and transport errors are retried for `Session.retry_for` seconds, other problems raised."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from harness.client import Session, Stream
from platform_kit.aiohttp_sender import AiohttpTransport

from capacity.metrics import Meter, route_of

log = logging.getLogger(__name__)

#: Longest single wait a Retry-After may ask for, and how long one request waits out refusals in all.
MAX_RETRY_AFTER = 30.0
PATIENCE = 300.0
#: A refused request comes back between its Retry-After and half as long again later, as a well-behaved client
#: does: without it, every bot refused in the same second came back in the same second, and the director
#: refused most of them again (3,064 refusals for 1,496 registrations on one gateway, 3,000-player run).
RETRY_SPREAD = 0.5


def spread(pause: float, rng: random.Random) -> float:
    return pause * rng.uniform(1.0, 1.0 + RETRY_SPREAD)


def retry_after(answer: httpx.Response) -> float | None:
    """The wait a refusal asks for: a 429, or a 503 or 409 naming Retry-After (seconds: the 409 is a request with
    the same Idempotency-Key still being answered); None for any other answer."""
    if answer.status_code not in (409, 429, 503):
        return None
    text = answer.headers.get("retry-after")
    if text is None:
        return 1.0 if answer.status_code == 429 else None
    try:
        return min(max(float(text), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return 1.0


def problem_code(answer: httpx.Response) -> str:
    """The problem+json `code` of a refusal, or `-` when its body is not one."""
    try:
        body = answer.json()
    except ValueError:
        return "-"
    return str(body.get("code", "-")) if isinstance(body, dict) else "-"


class MeteredClient(httpx.AsyncClient):
    """`connections` (httpx's default 100): requests sent at once, over as many connections; the others wait their
    turn here, in order."""

    def __init__(
        self, meter: Meter, rng: random.Random | None = None, *, connections: int = 100, **kwargs: Any
    ) -> None:
        if "transport" not in kwargs:  # tests give one of their own
            kwargs["transport"] = AiohttpTransport(max_connections=connections)
        super().__init__(**kwargs)
        self.meter = meter
        self.rng = rng or random.Random()
        self._turns = asyncio.Semaphore(connections)

    async def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        stats = self.meter.route(route_of(request.method, request.url.path))
        waited = 0.0
        while True:
            try:
                async with self._turns:
                    started = time.monotonic()
                    answer = await super().send(request, **kwargs)
            except httpx.TransportError as error:
                if isinstance(error, httpx.TimeoutException):
                    stats.timeouts += 1
                else:
                    stats.transport_errors += 1
                stats.failures[type(error).__name__] += 1
                raise
            if answer.status_code >= 400:
                stats.problems[f"{answer.status_code} {problem_code(answer)}"] += 1
            pause = retry_after(answer)
            if pause is None or waited >= PATIENCE:
                stats.answered(answer.status_code, time.monotonic() - started)
                return answer
            stats.refused += 1
            pause = spread(pause, self.rng)
            await asyncio.sleep(pause)
            waited += pause


class LobbySocket(Stream):
    """A lobby socket (`?socket=lobby`); `connected` is set once it is connected and has sent its subscriptions."""

    def __init__(self, session: Session) -> None:
        super().__init__(session, "lobby")
        self.connected = asyncio.Event()

    async def _connect(self) -> None:
        await super()._connect()
        self.connected.set()


class TableSocket(Stream):
    """A table socket whose subscriptions ask for the channel's recent messages: a bot that opens its new table
    a moment after a hand started there still sees the action it is asked for (and its cards). The bot acts on
    it, as the web client does (`act` frames); what the gateway refuses there is counted by code."""

    def __init__(self, session: Session, meter: Meter) -> None:
        super().__init__(session, "table")
        self.meter = meter

    def refused(self, frame: dict[str, Any]) -> None:
        self.meter.count(f"table socket refusals: {frame.get('code', '-')}")

    async def send(self, frame: dict[str, Any]) -> bool:
        if frame.get("type") == "subscribe":
            frame = {**frame, "history": True}
        return await super().send(frame)


async def follow(socket: Stream, hear: Callable[[str, Mapping[str, Any], str | None], None], player: str) -> None:
    """Hand each message of `socket` to `hear(event, payload, occurred_at)`, for ever; one it fails to handle is
    logged."""
    async for message in socket.messages():
        try:
            hear(str(message.get("event")), message.get("payload") or {}, message.get("occurred_at"))
        except Exception:
            log.exception("bot %s could not handle %s", player, message.get("event"))


async def after_reconnecting(socket: Stream, react: Callable[[], None]) -> None:
    """Call `react()` after each reconnection of `socket` (its messages meanwhile are lost), for ever."""
    while True:
        await socket.reconnected.wait()
        socket.reconnected.clear()
        react()
