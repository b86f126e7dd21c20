"""A tournament player as the capacity harness plays it: REST and two WebSockets, like the web client.

The bot learns where it sits from its lobby socket (`seating.py`: the gateway's private seating push, REST only as
the fallback), follows that table on its table socket, and acts on that socket (an `act` frame, as the web
client's table.js does; `POST /tables/{id}/actions` while the socket is down) after a think time drawn from its
pace. The latency of an action runs from sending it to the moment the bot's own `table.action.taken` arrives on
its table socket. When it leaves the table (moved, busted, the table broken or
closed) it waits for its next seat, until it has a finishing position or the tournament is over.

The decision is the e2e bots' (`harness.bots.decide`: a random legal action, wary of big calls).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from harness.bots import decide
from harness.client import ApiError, Session, Unreachable, new_key

from capacity.client import TableSocket, after_reconnecting, follow
from capacity.metrics import BACK_TO_THE_PLAYER, TO_THE_TABLE, Meter
from capacity.seating import Seating

log = logging.getLogger(__name__)

HAND_BOUNDARIES = frozenset({"table.hand.started", "table.hand.completed", "table.hand.voided"})


@dataclass(frozen=True)
class Pace:
    """Think times: `think` until `fast_after` seconds (monotonic instant), `fast` after it."""

    think: tuple[float, float]
    fast: tuple[float, float] | None = None
    fast_after: float | None = None

    def draw(self, rng: random.Random) -> float:
        low, high = self.fast if self.fast and self.phase() == "fast" else self.think
        return rng.uniform(low, high)

    def phase(self) -> str | None:
        """`human` or `fast` for a pace that speeds up, None for one that does not."""
        if self.fast is None or self.fast_after is None:
            return None
        return "fast" if time.monotonic() >= self.fast_after else "human"


class CapacityBot:
    def __init__(self, session: Session, tournament_id: str, rng: random.Random, meter: Meter) -> None:
        self.session = session
        self.tournament_id = tournament_id
        self.rng = rng
        self.meter = meter
        self.pace = Pace((0.0, 0.0))
        self.socket = TableSocket(session, meter)
        self.seating = Seating(session, tournament_id, rng, meter)
        self._table: str | None = None
        #: Set on every change of `_away` (left the table, or — in replayed history — seated there again).
        self._left = asyncio.Event()
        self._away = False
        self._pending: Mapping[str, Any] | None = None  # the action request this bot has yet to answer
        self._sent_at: float | None = None
        self._sent_wall = 0.0
        self._jobs: set[asyncio.Task[None]] = set()

    @property
    def me(self) -> str:
        return self.session.player_id

    async def register(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.seating.open()  # listening before any seat can be pushed
        started = time.monotonic()
        path = f"/tournaments/{self.tournament_id}/registrations"
        try:
            await self.session.call("POST", path, json={"entry": "buy_in"}, key=new_key())
        except ApiError as error:
            if error.code != "already_registered":  # a retry whose first answer was lost
                raise
        self.meter.sample("registration", time.monotonic() - started, time.monotonic())

    async def play(self, pace: Pace) -> None:
        """Until the bot has a finishing position or the tournament is over."""
        self.pace = pace
        await self.seating.open()
        tasks = [
            asyncio.create_task(follow(self.socket, self._on, self.me)),
            asyncio.create_task(after_reconnecting(self.socket, self._reconnected)),
        ]
        gone: str | None = None
        try:
            while (table := await self.seating.next_table(gone)) is not None:
                await self._sit_at(table)
                while not self._away:
                    await self._left.wait()
                    self._left.clear()
                gone = table
        finally:
            for task in [*tasks, *self._jobs]:
                task.cancel()
            await asyncio.gather(*tasks, *self._jobs, return_exceptions=True)
            await self.socket.close()
            await self.seating.close()

    # -- where the bot sits ------------------------------------------------------------------------------------
    async def _sit_at(self, table: str) -> None:
        if self._table is not None:
            await self.socket.unsubscribe(f"table:{self._table}")
        self._table, self._pending, self._sent_at, self._away = table, None, None, False
        await self.socket.subscribe(f"table:{table}")

    # -- the table's stream ------------------------------------------------------------------------------------
    def _reconnected(self) -> None:
        self.meter.count("table socket reconnects")

    def _on(self, event: str, payload: Mapping[str, Any], occurred_at: str | None = None) -> None:
        if payload.get("table_id") != self._table:
            return
        mine = payload.get("player_id") == self.me
        if event == "table.action.requested":
            self._pending = payload if mine else None
            if mine:
                self._spawn(self._act(payload))
        elif event == "table.action.taken":
            self._pending = None  # whoever acted, a request this bot still held is answered
            if mine:
                self._taken(payload, occurred_at)
        elif event in HAND_BOUNDARIES:
            self._pending = None
        elif event == "table.action.rejected" and mine:
            self.meter.count("actions rejected by the engine")
            self._sent_at = None
        elif event == "table.sitting_out.changed" and mine and payload.get("sitting_out"):
            self._spawn(self._back_in(str(payload["table_id"])))
        elif (event == "table.player.unseated" and mine) or event == "table.table.closed":
            self._away = True
            self._left.set()
        elif event == "table.player.seated" and payload["player"]["player_id"] == self.me:
            self._away = False  # moved back to a table it had left: the history replays both
            self._left.set()

    def _taken(self, payload: Mapping[str, Any], occurred_at: str | None) -> None:
        automatic = payload.get("automatic")
        if automatic == "timeout":
            self.meter.count("actions timed out")
        elif automatic:
            self.meter.count(f"actions taken while {automatic}")
        elif self._sent_at is not None:
            now = time.monotonic()
            self.meter.sample("action", now - self._sent_at, now)
            if phase := self.pace.phase():
                self.meter.sample(f"action, {phase} pace", now - self._sent_at, now)
            if occurred_at is not None:
                # The engine stamps the event when it applies the action: the latency's two halves, on the wall
                # clock every process of the machine shares.
                applied = datetime.fromisoformat(occurred_at).timestamp()
                self.meter.sample(TO_THE_TABLE, applied - self._sent_wall, now)
                self.meter.sample(BACK_TO_THE_PLAYER, time.time() - applied, now)
            self._sent_at = None

    async def _act(self, request: Mapping[str, Any]) -> None:
        await asyncio.sleep(self.pace.draw(self.rng))
        if self._pending is not request:  # answered meanwhile (replayed history, a timeout)
            return
        decision = decide(request, self.rng)
        body: dict[str, Any] = {"hand_id": request["hand_id"], "action": decision.action}
        if decision.amount is not None:
            body["amount"] = decision.amount
        self._sent_at, self._sent_wall = time.monotonic(), time.time()
        # On the table socket, as the web client acts (table.js); over REST only while the socket is down.
        if await self.socket.send({"type": "act", "table_id": request["table_id"], "ref": request["hand_id"], **body}):
            self.meter.count("actions sent")
            return
        try:
            await self.session.call("POST", f"/tables/{request['table_id']}/actions", json=body)
            self.meter.count("actions sent")
            self.meter.count("actions sent over REST (table socket down)")
        except (ApiError, Unreachable) as error:
            self._sent_at = None
            log.info("bot %s: action refused: %s", self.me, error)

    async def _back_in(self, table_id: str) -> None:
        """A timeout sits a player out until they ask to come back."""
        with contextlib.suppress(ApiError, Unreachable):
            await self.session.call("POST", f"/tables/{table_id}/sitting-out", json={"sitting_out": False})

    def _spawn(self, job: Any) -> None:
        task = asyncio.create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)
