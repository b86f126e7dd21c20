"""P-10 for real: a table-engine process killed with SIGKILL mid-hand, on RabbitMQ and PostgreSQL, comes back,
voids the interrupted hand with every stack at its start-of-hand value, and plays the next hand."""

from __future__ import annotations

import os
import random
import secrets
import signal
import socket
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

import aio_pika
import httpx
import pytest
from platform_kit.bus import Envelope
from platform_kit.bus.rabbitmq import RabbitBus
from platform_kit.events import Command, Event
from platform_kit.events import table as contract
from platform_kit.events.table import command_routing_key, shard_for, shard_queue
from platform_kit.testing import delete_queues, eventually

pytestmark = [pytest.mark.postgres, pytest.mark.rabbitmq]

ROOT = Path(__file__).resolve().parents[4]
LEVEL = contract.Level(small_blind=10, big_blind=20)
E = TypeVar("E", bound=Event)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class EngineProcess:
    """`uv run platform serve table-engine` as its own process group, so that SIGKILL reaches the server."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                ["uv", "run", "--no-sync", "platform", "serve", "table-engine"],
                cwd=ROOT,
                env={**os.environ, **self.env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None


class Observer:
    """Every public and private table message, as a subscriber on the broker receives them."""

    def __init__(self) -> None:
        self.received: list[Envelope] = []

    async def handle(self, envelope: Envelope) -> None:
        self.received.append(envelope)

    def events(self, kind: type[E]) -> list[E]:
        return [envelope.event() for envelope in self.received if envelope.type == kind.TYPE]  # type: ignore[misc]

    async def one(self, kind: type[E], where: Callable[[E], bool] = lambda _: True) -> E:
        """The latest `kind` event that satisfies `where`, waiting for it if need be."""

        async def matches() -> list[E]:
            return [event for event in self.events(kind) if where(event)]

        return (await eventually(matches, timeout=30))[-1]


async def consumers_of(url: str, queue: str) -> int:
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        try:
            declared = await channel.declare_queue(queue, passive=True)
        except aio_pika.exceptions.ChannelClosed:
            return 0
        return int(declared.declaration_result.consumer_count or 0)


@pytest.fixture
async def setup(
    postgres_url: str, rabbitmq_url: str, unique_name: str, tmp_path: Path
) -> AsyncIterator[tuple[EngineProcess, RabbitBus, Observer, str, int]]:
    table_id = f"crash-{unique_name}"
    # A shard count and index no other process uses: this test's engine has a command queue of its own.
    shards = random.randrange(1_000_000, 9_000_000)
    shard = shard_for(table_id, shards)
    engine = EngineProcess(
        {
            "TABLE_ENGINE_DATABASE_URL": postgres_url,
            "TABLE_ENGINE_BUS_URL": rabbitmq_url,
            # On RabbitMQ the engine is deployed: it refuses the development internal token.
            "TABLE_ENGINE_INTERNAL_TOKEN": secrets.token_urlsafe(32),
            "TABLE_ENGINE_PORT": str(free_port()),
            "TABLE_ENGINE_TABLE_ENGINE_SHARDS": str(shards),
            "TABLE_ENGINE_SHARD_NAME": f"table-engine-{shard}",
            "TABLE_ENGINE_TIMER_INTERVAL_SECONDS": "0.5",
        },
        tmp_path / "engine.log",
    )
    bus = RabbitBus(rabbitmq_url)
    await bus.start()
    observer = Observer()
    await bus.subscribe(unique_name, ["table.#", "private.table.#"], observer.handle)
    queue = shard_queue(shard)
    try:
        yield engine, bus, observer, table_id, shards
    finally:
        engine.kill()
        await bus.close()
        await delete_queues(
            rabbitmq_url,
            unique_name,
            f"{unique_name}.dead",
            queue,
            f"{queue}.dead",
            f"{queue}.sanctions",
            f"{queue}.sanctions.dead",
        )


async def test_p10_sigkill_mid_hand_voids_the_hand_and_the_next_hand_is_played(
    setup: tuple[EngineProcess, RabbitBus, Observer, str, int], rabbitmq_url: str
) -> None:
    engine, bus, observer, table_id, shards = setup
    queue = shard_queue(shard_for(table_id, shards))

    async def send(command: Command) -> None:
        await bus.publish(
            Envelope.wrap(command, producer="director").outgoing(command_routing_key(command, table_id, shards))
        )

    async def consuming() -> bool:
        return await consumers_of(rabbitmq_url, queue) > 0

    engine.start()
    await eventually(consuming, timeout=60, interval=0.2)
    await send(
        contract.OpenTable(
            table_id=table_id,
            tournament_id="sigkill-cup",
            max_seats=6,
            betting_structure="no_limit",
            seats=[contract.SeatedPlayer(seat=n, player_id=f"p{n}", stack=1500) for n in (1, 2, 3)],
            button_seat=1,
        )
    )
    await send(contract.StartHand(table_id=table_id, hand_no=1, level=LEVEL))
    first = await observer.one(contract.HandStarted)
    hand_id = first.hand_id
    # P-1.3: a contribution during hand 1 goes into the next hand dealt, whose seed is already committed to.
    await send(contract.ContributeToDeck(table_id=table_id, player_id="p3", value="kept-across-the-kill"))
    accepted = await observer.one(contract.ContributionAccepted)
    assert accepted.deck_commitment == first.next_deck_commitment
    await send(contract.PlayerAct(table_id=table_id, hand_id=hand_id, player_id="p1", action="raise", amount=300))
    await send(contract.PlayerAct(table_id=table_id, hand_id=hand_id, player_id="p2", action="call"))
    await observer.one(contract.ActionRequested, lambda e: e.seat == 3)

    engine.kill()  # SIGKILL, mid-hand: p1 and p2 have 300 each in the pot
    engine.start()

    voided = await observer.one(contract.HandVoided)
    assert voided.hand_id == hand_id
    assert [(s.seat, s.player_id, s.stack) for s in voided.restored] == [
        (2, "p2", 1500),
        (3, "p3", 1500),
        (1, "p1", 1500),
    ]

    # The director answers with the next StartHand; a command for the void hand is refused.
    await send(contract.PlayerAct(table_id=table_id, hand_id=hand_id, player_id="p3", action="call"))
    assert (await observer.one(contract.ActionRejected)).code == "stale_hand"
    await send(contract.StartHand(table_id=table_id, hand_no=2, level=LEVEL))
    second = await observer.one(contract.HandStarted, lambda e: e.hand_no == 2)
    assert [(s.seat, s.stack) for s in second.seats] == [(2, 1500), (3, 1500), (1, 1500)]
    assert second.deck_commitment == first.next_deck_commitment  # the seed committed before the kill
    await send(contract.PlayerAct(table_id=table_id, hand_id=second.hand_id, player_id="p1", action="fold"))
    await send(contract.PlayerAct(table_id=table_id, hand_id=second.hand_id, player_id="p2", action="fold"))
    completed = await observer.one(contract.HandCompleted)
    assert [(r.player_id, r.end_stack) for r in completed.results] == [("p2", 1490), ("p3", 1510), ("p1", 1500)]

    port = engine.env["TABLE_ENGINE_PORT"]
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        hands = (await http.get(f"/v1/tables/{table_id}/hands")).json()["hands"]
        second_history = (await http.get(f"/v1/hands/{second.hand_id}/phh")).text
    assert "kept-across-the-kill" in second_history  # the value, saved before the kill, went into hand 2
    assert [(h["hand_no"], h["status"]) for h in hands] == [(2, "completed"), (1, "voided")]
    # Hole cards went out privately, one message per player and hand.
    assert len(observer.events(contract.HoleCardsDealt)) == 6
