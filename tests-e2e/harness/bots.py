"""Bots that play a tournament through the gateway, as a player with the web client would, and keep playing
through restarts of the gateway (their sockets reconnect and they read their state again over REST).

The decision at each action request is the gateway bots' own (`gateway.bots.strategy.choose`: a random legal
action), made warier of big bets (`decide`). What the gateway bots do not do, and the e2e scenario needs, is
here: rebuys when busted in the rebuy period, an add-on at the add-on break, coming back in after being sat out by
a timeout, and reconnecting.

Whether a bot rebuys (up to how many times) and takes the add-on is decided up front from the run's seed, so two
runs with one seed make the same choices; which of those choices come into play depends on the cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from gateway.bots.strategy import Decision, choose

from harness.client import ApiError, Session, Stream, new_key

log = logging.getLogger(__name__)

#: Facing a call of at least this share of everything it has, a bot folds this often. The gateway bots call
#: four times in five, so that all-ins end a tournament in a few hands however slow the blinds; warier bots make
#: it last as long as its blind clock does, whatever the machine's speed — and the faults hit it while it runs.
BIG_CALL_SHARE = 1 / 3
BIG_CALL_FOLDS = 0.75
RAISE_CHANCE = 0.15
#: How long a refused rebuy or add-on is tried again (the director may not have seen the bust or break yet).
PURCHASE_PATIENCE_SECONDS = 4.0
RESYNC_SECONDS = 4.0
OVER = frozenset({"tournament.tournament.finished", "tournament.tournament.cancelled"})


def decide(request: Mapping[str, Any], rng: random.Random) -> Decision:
    """A random legal action for a `table.action.requested`, rarely calling off a large part of the stack."""
    decision = choose(request, rng, aggression=RAISE_CHANCE)
    if decision.action == "call":
        everything = request.get("max_raise_to") or request["call_amount"]  # no raise left: the call is all-in
        if request["call_amount"] >= everything * BIG_CALL_SHARE and rng.random() < BIG_CALL_FOLDS:
            return Decision("fold")
    return decision


@dataclass(frozen=True)
class BotPlan:
    rebuys: int = 0
    addon: bool = False

    @classmethod
    def draw(cls, rng: random.Random, *, max_rebuys: int, addon_offered: bool) -> BotPlan:
        return cls(
            rebuys=rng.choice(range(max_rebuys + 1)) if max_rebuys else 0,
            addon=addon_offered and rng.random() < 0.7,
        )


@dataclass
class BotRecord:
    """What a bot did, for the run's summary."""

    actions: int = 0
    #: Actions the table took for the bot when its time ran out (it was disconnected, or too slow).
    timeouts: int = 0
    rebuys: int = 0
    addons: int = 0
    reconnects: int = 0


class TournamentBot:
    def __init__(
        self,
        session: Session,
        tournament_id: str,
        rng: random.Random,
        plan: BotPlan,
        *,
        think_seconds: tuple[float, float] = (0.0, 0.05),
    ) -> None:
        self.session = session
        self.tournament_id = tournament_id
        self.rng = rng
        self.plan = plan
        self.think = think_seconds
        self.record = BotRecord()
        self._lobby = session.socket("lobby")
        self._table = session.socket("table")
        self._current: str | None = None
        self._done = asyncio.Event()
        self._purchase = asyncio.Lock()
        self._jobs: set[asyncio.Task[None]] = set()

    @property
    def me(self) -> str:
        return self.session.player_id

    async def register(self) -> None:
        try:
            await self.session.call(
                "POST", f"/tournaments/{self.tournament_id}/registrations", json={"entry": "buy_in"}, key=new_key()
            )
        except ApiError as error:
            if error.code != "already_registered":  # a retry whose first answer was lost
                raise

    async def play(self) -> BotRecord:
        """Play until the tournament is over for this bot (eliminated, finished or cancelled)."""
        await self._lobby.subscribe(f"tournament:{self.tournament_id}")
        tasks = [
            asyncio.create_task(self._follow(self._lobby, self._on_lobby)),
            asyncio.create_task(self._follow(self._table, self._on_table)),
            asyncio.create_task(self._resync_now_and_then()),
        ]
        try:
            await self._done.wait()
        finally:
            for task in [*tasks, *self._jobs]:
                task.cancel()
            await asyncio.gather(*tasks, *self._jobs, return_exceptions=True)
            await self._lobby.close()
            await self._table.close()
        return self.record

    # -- streams --------------------------------------------------------------------------------------------------
    async def _follow(self, stream: Stream, handle: Any) -> None:
        async for message in stream.messages():
            try:
                await handle(message.get("event"), message.get("payload") or {})
            except Exception:
                log.exception("bot %s could not handle %s", self.me, message.get("event"))

    async def _on_lobby(self, event: str, payload: Mapping[str, Any]) -> None:
        if payload.get("tournament_id") not in (None, self.tournament_id):
            return
        if self._seats_me(event, payload):
            await self._sit_at(payload["table_id"])
        elif (event == "tournament.player.eliminated" and payload["player_id"] == self.me) or event in OVER:
            self._done.set()
        elif event == "tournament.rebuy.offered" and payload["player_id"] == self.me:
            self._spawn(self._rebuy())
        elif event == "tournament.addon.offered" and payload["player_id"] == self.me:
            self._spawn(self._addon())

    def _seats_me(self, event: str, payload: Mapping[str, Any]) -> bool:
        """A table opened with this bot at it, or this bot was seated at one (a move)."""
        if event == "table.table.opened":
            return any(seat["player_id"] == self.me for seat in payload["seats"])
        return event == "table.player.seated" and payload["player"]["player_id"] == self.me

    async def _on_table(self, event: str, payload: Mapping[str, Any]) -> None:
        if payload.get("table_id") != self._current:
            return
        if event == "table.action.requested" and payload["player_id"] == self.me:
            await asyncio.sleep(self.rng.uniform(*self.think))
            decision = decide(payload, self.rng)
            frame = {
                "type": "act",
                "table_id": payload["table_id"],
                "hand_id": payload["hand_id"],
                "action": decision.action,
                "ref": f"{payload['hand_id']}:{self.record.actions}",
            }
            if decision.amount is not None:
                frame["amount"] = decision.amount
            if await self._table.send(frame):
                self.record.actions += 1
        elif event == "table.action.taken" and payload["player_id"] == self.me and payload.get("automatic"):
            if payload["automatic"] == "timeout":
                self.record.timeouts += 1
            elif payload["automatic"] == "sitting_out":  # sat out while its socket was down: it missed the news
                await self._back_in(payload["table_id"])
        elif event == "table.sitting_out.changed" and payload["player_id"] == self.me and payload["sitting_out"]:
            await self._back_in(payload["table_id"])

    async def _back_in(self, table_id: str) -> None:
        """A timeout sits a player out (blinds posted, hands folded for them) until they ask to come back."""
        await self._table.send({"type": "sit_out", "table_id": table_id, "sitting_out": False})

    async def _sit_at(self, table_id: str) -> None:
        if table_id == self._current:
            return
        if self._current is not None:
            await self._table.unsubscribe(f"table:{self._current}")
        self._current = table_id
        await self._table.subscribe(f"table:{table_id}")

    # -- state over REST: at start, after a reconnect, and now and then for what a dropped socket missed ---------
    async def _resync_now_and_then(self) -> None:
        while not self._done.is_set():
            await self._resync()
            waits = [asyncio.create_task(s.reconnected.wait()) for s in (self._lobby, self._table)]
            try:
                await asyncio.wait(waits, timeout=RESYNC_SECONDS, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in waits:
                    task.cancel()
            for stream in (self._lobby, self._table):
                if stream.reconnected.is_set():
                    self.record.reconnects += 1
                    stream.reconnected.clear()

    async def _resync(self) -> None:
        try:
            mine = await self.session.call("GET", f"/players/{self.me}/tournaments")
        except ApiError as error:
            log.warning("bot %s could not read its tournaments: %s", self.me, error)
            return
        for entry in mine if isinstance(mine, list) else []:
            if entry.get("tournament_id") != self.tournament_id:
                continue
            if entry.get("position") is not None or entry.get("status") in ("finished", "cancelled"):
                self._done.set()
            elif entry.get("table_id"):
                await self._sit_at(str(entry["table_id"]))

    # -- purchases ------------------------------------------------------------------------------------------------
    async def _rebuy(self) -> None:
        async with self._purchase:
            if self.record.rebuys >= self.plan.rebuys:
                return
            if await self._purchase_with_patience("rebuys"):
                self.record.rebuys += 1

    async def _addon(self) -> None:
        async with self._purchase:
            if not self.plan.addon or self.record.addons:  # the e2e tournaments allow one add-on
                return
            if await self._purchase_with_patience("addons"):
                self.record.addons += 1

    async def _purchase_with_patience(self, what: str) -> bool:
        """POST a rebuy or add-on; a refusal is tried again (with a new key: nothing was paid) for a few seconds,
        in case the director has not yet seen the hand or the break that allows it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PURCHASE_PATIENCE_SECONDS
        while True:
            try:
                await self.session.call("POST", f"/tournaments/{self.tournament_id}/{what}", json={}, key=new_key())
                return True
            except ApiError as error:
                if loop.time() > deadline or error.status in (401, 403, 404):
                    log.info("bot %s: %s refused: %s", self.me, what, error)
                    return False
            await asyncio.sleep(0.3)

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._jobs.discard(task)
        with contextlib.suppress(asyncio.CancelledError):
            if (error := task.exception()) is not None:
                log.warning("bot %s: a purchase failed: %r", self.me, error)
