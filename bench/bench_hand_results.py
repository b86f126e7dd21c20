"""What one hand result costs the tournament director (issue 14): its transactions and statements on its own
PostgreSQL database, and the process's CPU and wall time per `table.hand.completed` applied.

The director runs in process on PostgreSQL with the in-memory bus, its consumers and its outbox relay, as it
runs deployed. A `players`-player scheduled tournament is running (its run saved as the service saves it); a
stand-in table engine in the same process answers every `table.next_hand` the director publishes with that
hand's `table.hand.completed` (a few chips moved between two players, nobody busted, so the seating stays put).
Two phases:

- one at a time: a hand result is published only once the previous one's next deal came back (human pace: ~10
  hands/s in a 3,000-player tournament, so each message is a transaction of its own);
- a round: every table's hand completes at once and the consumer applies what is waiting in batches.

The CPU is the whole process's (the bus and the stand-in engine run in it too): compare runs, not services.

    uv run python bench/bench_hand_results.py [--players 3000] [--hands 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from datetime import UTC, datetime

from platform_kit.bus import Envelope, InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events import table as table_bus
from platform_kit.testing import DatabaseTraffic, create_database, drop_database, running_app
from tournament_director.adapters import runs, tournaments
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.app import create_app as director_app
from tournament_director.domain.run import TournamentRun
from tournament_director.service.context import Director
from tournament_director.settings import Settings as DirectorSettings
from tournament_director.simulation.setup import SimulationOptions, simulation_definition

START = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
T = "t-bench"


class StandInEngine:
    """Deals what the director asks and completes each hand at once, when told to: stacks per table, the hand
    each table is playing, and the deals waiting to be completed."""

    def __init__(self, bus: InMemoryBus, seed: int) -> None:
        self.bus = bus
        self.rng = random.Random(seed)
        self.stacks: dict[str, dict[int, tuple[str, int]]] = {}
        self.dealt: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        #: Set by every deal the director sends.
        self.deal_came = asyncio.Event()

    def open(self, table: table_bus.OpenTable) -> None:
        self.stacks[table.table_id] = {seated.seat: (seated.player_id, seated.stack) for seated in table.seats}

    async def on_command(self, envelope: Envelope) -> None:
        if envelope.type == table_bus.StartHand.TYPE:
            deal = table_bus.StartHand.model_validate(envelope.payload)
            self.dealt.put_nowait((deal.table_id, deal.hand_no))
            self.deal_came.set()

    async def complete(self, table_id: str, hand_no: int) -> None:
        seats = self.stacks[table_id]
        loser, winner = self.rng.sample(sorted(seats), 2)
        moved = min(100, seats[loser][1] - 1)  # nobody busts: the tables stay as they are
        results = []
        for seat, (player, stack) in sorted(seats.items()):
            end = stack - moved if seat == loser else stack + moved if seat == winner else stack
            results.append(table_bus.SeatResult(seat=seat, player_id=player, start_stack=stack, end_stack=end))
            seats[seat] = (player, end)
        fact = table_bus.HandCompleted(
            table_id=table_id,
            tournament_id=T,
            hand_id=f"{table_id}#{hand_no}",
            hand_no=hand_no,
            button_seat=min(seats),
            board=[],
            results=results,
            pots=[],
            shown=[],
            busted_player_ids=[],
        )
        await self.bus.publish(Envelope.wrap(fact, producer="table-engine").outgoing())


async def start_tournament(director: Director, engine: StandInEngine, players: int) -> None:
    """The tournament running, its run saved as `act_on_run` saves it, and the first hands dealt."""
    definition = simulation_definition(SimulationOptions(players=players, seed=1))
    record = TournamentRecord(
        tournament_id=T,
        name="bench",
        status=Status.RUNNING,
        currency="EUR",
        concessionaire_id=None,
        created_by="bench",
        template=None,
        definition=definition,
        jackpots=(),
        invited_player_ids=frozenset(),
        registration_opens_at=None,
        starts_at=None,
        created_at=START,
    )
    names = [f"player-{n:05d}" for n in range(players)]
    run, messages = TournamentRun.start(T, definition, names, random.Random(1), START, currency="EUR")
    async with director.runtime.db.transaction() as session:
        await tournaments.insert(session, record)
        await runs.save(session, run, START, director.run_cache)
    for message in messages:
        if isinstance(message, table_bus.OpenTable):
            engine.open(message)
        elif isinstance(message, table_bus.StartHand):
            engine.dealt.put_nowait((message.table_id, message.hand_no))


async def one_at_a_time(engine: StandInEngine, hands: int) -> None:
    for _ in range(hands):
        table_id, hand_no = await engine.dealt.get()
        engine.deal_came.clear()
        await engine.complete(table_id, hand_no)
        # The director's next deal at that table comes once the result committed and was relayed.
        await engine.deal_came.wait()


async def a_round(engine: StandInEngine) -> int:
    deals = [engine.dealt.get_nowait() for _ in range(engine.dealt.qsize())]
    for table_id, hand_no in deals:
        await engine.complete(table_id, hand_no)
    while engine.dealt.qsize() < len(deals):
        engine.deal_came.clear()
        await engine.deal_came.wait()
    return len(deals)


def row(name: str, hands: int, traffic: DatabaseTraffic, database: str, cpu: float, wall: float) -> None:
    print(
        f"{name:<16} {hands:>6} {traffic.commits[database] / hands:>14.2f} "
        f"{traffic.statements[database] / hands:>15.2f} {1000 * cpu / hands:>11.1f} {1000 * wall / hands:>12.1f} "
        f"{hands / wall:>8.1f}"
    )


async def main(players: int, hands: int) -> None:
    url = await create_database()
    bus = InMemoryBus()
    try:
        app = director_app(
            DirectorSettings(database_url=url, lobby_schedule=[], clock_interval_seconds=3600.0),
            bus=bus,
            clock=FrozenClock(START),
            rng=random.Random(1),
        )
        engine = StandInEngine(bus, seed=2)
        await bus.subscribe("bench-engine", ["table-engine.#"], engine.on_command)
        async with running_app(app, "http://director"):
            director: Director = app.state.services.director
            database = str(director.runtime.db.engine.url.database)
            await start_tournament(director, engine, players)
            await one_at_a_time(engine, 5)  # the first load restores the snapshot; the cache holds it from then on
            tables = len(engine.stacks)
            print(f"{players:,} players, {tables} tables")
            print(f"{'':<16} {'hands':>6} {'commits/hand':>14} {'statements/hand':>15} {'cpu ms/hand':>11} "
                  f"{'wall ms/hand':>12} {'hands/s':>8}")  # fmt: skip
            cpu, wall = time.process_time(), time.perf_counter()
            with DatabaseTraffic() as traffic:
                await one_at_a_time(engine, hands)
            row("one at a time", hands, traffic, database, time.process_time() - cpu, time.perf_counter() - wall)
            cpu, wall = time.process_time(), time.perf_counter()
            with DatabaseTraffic() as traffic:
                done = await a_round(engine)
            row("a round at once", done, traffic, database, time.process_time() - cpu, time.perf_counter() - wall)
    finally:
        await bus.close()
        await drop_database(url)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3_000)
    parser.add_argument("--hands", type=int, default=200)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.hands))
