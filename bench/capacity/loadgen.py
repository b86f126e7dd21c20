"""A load-generator process: thousands of bots on one event loop, one httpx client (a pool of keep-alive
connections to the gateways' shared port) and a WebSocket per bot. The coordinator drives it over a pipe, one command
at a time: `sign_up`, `register`, `play`, `bet`, then `report` (its meter) and `stop`; `halt` comes at any time
and ends a running `play`.

A command's answer is a dict; an exception is answered as `{"error": <traceback>}` and raised again by the
coordinator (`fleet.py`)."""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import random
import signal
import time
import traceback
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import httpx
from harness.cast import CURRENCY, staff_session
from harness.client import ApiError, Session, new_key
from harness.draw import Coupon

from capacity import people
from capacity.bot import CapacityBot, Pace
from capacity.client import MeteredClient
from capacity.loop import run
from capacity.metrics import Meter

log = logging.getLogger(__name__)

SIGN_UP_PARALLEL = 32
#: A call that finds no gateway retries this long (the e2e sessions' `retry_for`).
RETRY_FOR = 120.0


#: Bots sharing one HTTP client (one connection pool). httpx matches every queued request against every pooled
#: connection each time a connection frees up: one client for 2,000 bots spent most of the load generator's CPU in
#: that matching (py-spy on a toto-rush: 55%), and the platform's latency figures included the wait; pools of this
#: size keep it cheap, and a bot still has a connection of its own.
BOTS_PER_CLIENT = 25


@dataclass(frozen=True)
class PaceSpec:
    think: tuple[float, float]
    fast: tuple[float, float] | None = None
    #: Seconds after the play starts when the bots switch to `fast`.
    human_seconds: float | None = None

    def pace(self) -> Pace:
        if self.human_seconds is None:
            return Pace(self.think)
        return Pace(self.think, self.fast, time.monotonic() + self.human_seconds)


class LoadGenerator:
    def __init__(self, gateway: str, seed: int, bots: int) -> None:
        self.meter = Meter()
        self.seed = seed
        self.clients = [
            MeteredClient(
                self.meter,
                random.Random(seed + n),
                connections=BOTS_PER_CLIENT,
                base_url=gateway,
                timeout=httpx.Timeout(30.0),
            )
            for n in range(max(1, math.ceil(bots / BOTS_PER_CLIENT)))
        ]
        self.http = self.clients[0]  # the cashier's and the staff's
        self.gateway = gateway
        self.sessions: list[Session] = []
        self.bots: list[CapacityBot] = []
        #: Set by the coordinator's `halt`: a running `play` stops its bots and answers.
        self.halted = asyncio.Event()

    # -- commands ----------------------------------------------------------------------------------------------
    async def sign_up(self, nicknames: list[str]) -> dict[str, Any]:
        """Players signed up with the run's concessionaire, each paid in its money at the cashier."""
        gate = asyncio.Semaphore(SIGN_UP_PARALLEL)
        cashier = await staff_session(self.http, self.gateway)

        async def one(index: int, nickname: str) -> Session:
            async with gate:
                http = self.clients[index % len(self.clients)]
                session = Session(http, self.gateway, retry_for=RETRY_FOR)
                await people.player(session, cashier, nickname, self.meter)
                return session

        self.sessions = list(await asyncio.gather(*(one(index, nickname) for index, nickname in enumerate(nicknames))))
        gc.freeze()  # the sessions live as long as the run: the collector need not scan them again
        return {"players": [session.player_id for session in self.sessions]}

    async def register(self, tournaments: list[str], window: float) -> dict[str, Any]:
        """Each player registers for its tournament at a random moment of the next `window` seconds."""
        self.bots = self._bots(tournaments)
        failed = await _settled(bot.register(bot.rng.uniform(0, window)) for bot in self.bots)
        self.meter.count("registrations failed", failed)
        return {"failed": failed}

    async def play(
        self, tournaments: list[str], pace: PaceSpec, deadline: float, register_window: float | None = None
    ) -> dict[str, Any]:
        """Every bot plays until it is out or its tournament over (registering first, for a sit'n'go that starts
        as soon as it is full). `deadline`: seconds after which the bots still playing are stopped."""
        if register_window is not None:
            self.bots = self._bots(tournaments)
        shared = pace.pace()

        async def one(bot: CapacityBot) -> None:
            if register_window is not None:
                await bot.register(bot.rng.uniform(0, register_window))
            await bot.play(shared)

        jobs = [asyncio.create_task(one(bot)) for bot in self.bots]
        everyone = asyncio.gather(*jobs, return_exceptions=True)
        halted = asyncio.create_task(self.halted.wait())
        either: list[asyncio.Future[Any]] = [everyone, halted]
        await asyncio.wait(either, timeout=deadline, return_when=asyncio.FIRST_COMPLETED)
        halted.cancel()
        unfinished = [job for job in jobs if not job.done()]
        for job in unfinished:
            job.cancel()
        errors = [error for error in await everyone if isinstance(error, Exception)]
        for error in errors[:5]:
            log.warning("a bot failed: %r", error)
        self.meter.count("bots stopped before the end", len(unfinished))
        self.meter.count("bots failed", len(errors))
        return {"unfinished": len(unfinished), "failed": len(errors)}

    async def bet(self, draw_id: str, coupons: list[list[Coupon]], window: float) -> dict[str, Any]:
        """Each bettor's coupons, each at a random moment of the next `window` seconds, one key each."""
        rng = random.Random(f"{self.seed}:bets:{draw_id}")

        async def one(bettor: Session, coupon: Coupon, delay: float) -> None:
            await asyncio.sleep(delay)
            body = {"currency": CURRENCY, "amount": coupon.amount, "picks": [list(p) for p in coupon.picks]}
            started = time.monotonic()
            try:
                await bettor.call("POST", f"/draws/{draw_id}/coupons", json=body, key=new_key())
            except ApiError as error:
                self.meter.count(f"coupons refused: {error.code}")
                return
            self.meter.sample("coupon", time.monotonic() - started, time.monotonic())

        placed = [
            one(bettor, coupon, rng.uniform(0, window))
            for bettor, own in zip(self.sessions, coupons, strict=True)
            for coupon in own
        ]
        failed = await _settled(placed)
        self.meter.count("coupons failed", failed)
        return {"failed": failed}

    async def report(self) -> Meter:
        return self.meter

    # -- helpers -----------------------------------------------------------------------------------------------
    def _bots(self, tournaments: list[str]) -> list[CapacityBot]:
        return [
            CapacityBot(session, tournament, random.Random(f"{self.seed}:{session.player_id}"), self.meter)
            for session, tournament in zip(self.sessions, tournaments, strict=True)
        ]


async def _settled(jobs: Iterable[Awaitable[None]]) -> int:
    """Run every job; how many failed (each is logged)."""
    results = await asyncio.gather(*jobs, return_exceptions=True)
    failures = [result for result in results if isinstance(result, BaseException)]
    for failure in failures[:5]:
        log.warning("failed: %r", failure)
    return len(failures)


async def _serve(connection: Connection, gateway: str, seed: int, bots: int) -> None:
    generator = LoadGenerator(gateway, seed, bots)
    commands: asyncio.Queue[tuple[int, str, dict[str, Any]] | None] = asyncio.Queue()
    reader = asyncio.create_task(_read_commands(connection, commands, generator.halted))
    try:
        while (item := await commands.get()) is not None:
            number, command, arguments = item
            try:
                answer: Any = await getattr(generator, command)(**arguments)
            except Exception:
                answer = {"error": traceback.format_exc()}
            generator.halted.clear()
            connection.send((number, answer))
    finally:
        reader.cancel()
        for client in generator.clients:
            await client.aclose()


async def _read_commands(
    connection: Connection, commands: asyncio.Queue[tuple[int, str, dict[str, Any]] | None], halted: asyncio.Event
) -> None:
    """Commands as they come: `halt` at once (a `play` may be running), the others in turn, None to stop."""
    while True:
        try:
            number, command, arguments = await asyncio.to_thread(connection.recv)
        except (EOFError, OSError):  # the coordinator is gone
            command = "stop"
        if command == "halt":
            halted.set()
        elif command == "stop":
            await commands.put(None)
            return
        else:
            await commands.put((number, command, arguments))


def serve(connection: Connection, gateway: str, seed: int, bots: int) -> None:
    """The process's entry point (multiprocessing, spawn). Ctrl-C is the coordinator's: it stops this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s load-generator %(levelname)s %(message)s")
    run(_serve(connection, gateway, seed, bots))
