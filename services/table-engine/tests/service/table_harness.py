"""Drives a table-engine app in process: SQLite, the in-memory bus, a frozen clock and a stacked deck.

Commands go in through the bus exactly as the director and the gateway send them (to the shard's queue);
everything the service publishes is read back from the bus, with its routing key.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
from fastapi import FastAPI
from platform_kit.app import runtime_of
from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events import Command, Event
from platform_kit.events import table as contract
from platform_kit.events.table import command_routing_key
from platform_kit.testing import running_app
from table_engine.app import create_app
from table_engine.bootstrap import Services
from table_engine.domain import parse_card
from table_engine.domain.cards import arrange_deck
from table_engine.service.host import Shuffler, TableHost
from table_engine.settings import Settings

TOKEN = "dev-internal-token"
START = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LEVEL = contract.Level(small_blind=10, big_blind=20)
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
E = TypeVar("E", bound=Event)


class StackedDeck:
    """A rigged dealer: its decks are chosen ones (then a fixed order), not the ones their seeds derive, so
    `verify-deal` rejects them; seeds count up and the first button is the first seat offered."""

    def __init__(self) -> None:
        self.decks: list[list[int]] = []
        self.seeds = 0

    def deal(self, hole_cards: Sequence[str | None], board: str = "") -> None:
        """The next hand deals these hole cards (in dealing order, from the button's left) and this board."""
        holes = [None if cards is None else (parse_card(cards[:2]), parse_card(cards[2:])) for cards in hole_cards]
        self.decks.append(arrange_deck(holes, [parse_card(board[i : i + 2]) for i in range(0, len(board), 2)]))

    def randbytes(self, n: int) -> bytes:
        self.seeds += 1
        return self.seeds.to_bytes(n, "big")

    def derive(self, seed: bytes, contributions: Sequence[str]) -> list[int]:
        return self.decks.pop(0) if self.decks else list(reversed(range(52)))

    def choice(self, seq: Sequence[int]) -> int:
        return seq[0]


class Harness:
    def __init__(
        self, app: FastAPI, http: httpx.AsyncClient, bus: InMemoryBus, clock: FrozenClock, rng: Shuffler
    ) -> None:
        self.app = app
        self.http = http
        self.bus = bus
        self.clock = clock
        self.rng = rng

    @property
    def deck(self) -> StackedDeck:
        assert isinstance(self.rng, StackedDeck), "this harness shuffles with another generator"
        return self.rng

    @property
    def host(self) -> TableHost:
        services: Services = self.app.state.services
        return services.host

    @property
    def settings(self) -> Settings:
        settings = runtime_of_app(self.app).settings
        assert isinstance(settings, Settings)
        return settings

    # -- sending -----------------------------------------------------------------------------------------------
    async def send(self, command: Command) -> None:
        table_id = command.table_id  # type: ignore[attr-defined]
        key = command_routing_key(command, table_id, self.settings.table_engine_shards)
        await self.bus.publish(Envelope.wrap(command, producer="test").outgoing(key))
        await self.settle()

    async def publish(self, event: Event) -> None:
        await self.bus.publish(Envelope.wrap(event, producer="test").outgoing())
        await self.settle()

    async def settle(self) -> None:
        """Until every command is applied and every event it caused is published."""
        relay = runtime_of_app(self.app).relay
        while True:
            await relay.flush()
            await self.bus.drain()  # consumers may write new events: go round until they write none
            if not await relay.backlog():
                return

    async def tick(self, seconds: float) -> None:
        """Let `seconds` pass on the frozen clock and run the action clocks."""
        self.clock.advance(timedelta(seconds=seconds))
        await self.host.tick()
        await self.settle()

    # -- common commands --------------------------------------------------------------------------------------
    async def open_table(self, table_id: str, stacks: Iterable[int] = (1000, 1000, 1000), **options: Any) -> None:
        seats = [contract.SeatedPlayer(seat=n, player_id=f"p{n}", stack=s) for n, s in enumerate(stacks, 1)]
        command = contract.OpenTable(
            table_id=table_id,
            tournament_id=options.pop("tournament_id", "t-1"),
            max_seats=options.pop("max_seats", 9),
            betting_structure=options.pop("betting_structure", "no_limit"),
            seats=seats,
            button_seat=options.pop("button_seat", 1),
            **options,
        )
        await self.send(command)

    async def start_hand(self, table_id: str, hand_no: int = 1, level: contract.Level = LEVEL) -> str:
        """Start a hand; its id."""
        await self.send(contract.StartHand(table_id=table_id, hand_no=hand_no, level=level))
        return self.last(contract.HandStarted).hand_id

    async def act(self, table_id: str, hand_id: str, player_id: str, action: str, amount: int | None = None) -> None:
        await self.send(
            contract.PlayerAct(table_id=table_id, hand_id=hand_id, player_id=player_id, action=action, amount=amount)
        )

    # -- reading what was published ---------------------------------------------------------------------------
    def messages(self) -> list[tuple[str, Envelope]]:
        return [(key, envelope) for key, envelope in self.bus.published if envelope.producer == "table-engine"]

    def events(self, kind: type[E]) -> list[E]:
        return [envelope.event() for _, envelope in self.messages() if envelope.type == kind.TYPE]  # type: ignore[misc]

    def last(self, kind: type[E]) -> E:
        found = self.events(kind)
        assert found, f"no {kind.TYPE} was published"
        return found[-1]

    def public_payloads(self) -> list[dict[str, Any]]:
        """Every payload a subscriber to `table.#` receives."""
        return [envelope.payload for key, envelope in self.messages() if key.startswith("table.")]

    def to_act(self) -> contract.ActionRequested:
        return self.last(contract.ActionRequested)

    async def get(self, path: str, **params: Any) -> httpx.Response:
        return await self.http.get(path, params=params, headers={"X-Internal-Token": TOKEN})


def runtime_of_app(app: FastAPI) -> Any:
    return app.state.runtime


@asynccontextmanager
async def running(
    database: Path | str,
    *,
    bus: InMemoryBus | None = None,
    clock: FrozenClock | None = None,
    rng: Shuffler | None = None,
    hand_pause_seconds: float = 0,
) -> AsyncIterator[Harness]:
    """A started table-engine app on the SQLite file `database`. Hands follow each other at once by default
    (`hand_pause_seconds` 0): these tests look at what happens within and between hands on a frozen clock, and
    the pace of play has its own tests, which set the pause."""
    url = database if isinstance(database, str) else f"sqlite+aiosqlite:///{database}"
    bus = bus or InMemoryBus()
    clock = clock or FrozenClock(START)
    rng = rng or StackedDeck()
    # The clock loop runs the action clocks once at start-up; tests run them with `tick`.
    settings = Settings(database_url=url, timer_interval_seconds=3600, hand_pause_seconds=hand_pause_seconds)
    if isinstance(rng, StackedDeck):
        app = create_app(settings, bus=bus, clock=clock, rng=rng, derive=rng.derive)
    else:  # a real generator: the decks its seeds derive, as in production
        app = create_app(settings, bus=bus, clock=clock, rng=rng)
    async with running_app(app, "http://table-engine") as http:
        harness = Harness(app, http, bus, clock, rng)
        await asyncio.wait_for(harness.host.ready.wait(), timeout=10)
        await harness.settle()
        yield harness
    await bus.close()


def strings_in(value: Any) -> Iterable[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def cards_in(value: Any) -> set[str]:
    return {text for text in strings_in(value) if CARD.match(text)}


__all__ = ["LEVEL", "START", "TOKEN", "Harness", "StackedDeck", "cards_in", "running", "runtime_of"]
