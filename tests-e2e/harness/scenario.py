"""The play of one run: players sign up, a 9-player sit'n'go and a rebuy tournament are created and filled by
bots, a totalizator draw is announced and bet on; then the tournaments are played to the end while the draw
closes, is settled and paid — and, in a faulty run, while the services are killed and the broker restarted.

Everything random in it comes from the plan's seed: who bets what, the match scores, each bot's decisions and
its willingness to rebuy or take the add-on."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from tournament_director.domain.definition import TournamentDefinition

from harness.bots import BotPlan, BotRecord, TournamentBot
from harness.broker import ensure_broker_running
from harness.cast import sign_up, staff_session
from harness.client import Session
from harness.definitions import rebuy_tournament, sit_and_go
from harness.draw import DrawDriver, DrawPlan, close_time
from harness.faults import Fault, FaultLog, inject
from harness.processes import Platform
from harness.verdict import Played, PlayedTournament

SIT_AND_GO_SEATS = 9


class Stalled(Exception):
    pass


@dataclass(frozen=True)
class ScenarioPlan:
    seed: int
    faults: tuple[Fault, ...] = ()
    scheduled_players: int = 30
    bettors: int = 8
    sit_and_go_level_seconds: int = 6
    scheduled_level_seconds: int = 10
    #: Bets close this long after the draw is announced, just before the play starts.
    draw_open_seconds: float = 8.0
    #: The scores are entered and the draw settled this long after the play starts (in a faulty run: while
    #: the wallet is down, so that its payouts are resumed by the totalizator's clock).
    draw_settle_at: float = 7.0
    #: From the start of the play to the end of both tournaments and the draw's payouts.
    play_timeout: float = 210.0
    #: A tournament whose tables show no new chip counts for this long has stalled (a fault takes seconds).
    stall_seconds: float = 45.0


@dataclass
class PlayLog:
    faults: FaultLog = field(default_factory=FaultLog)
    timings: dict[str, float] = field(default_factory=dict)
    bots: dict[str, BotRecord] = field(default_factory=dict)
    #: Why the play did not end in time (what was still going on), if it did not.
    stalled: str | None = None


class Scenario:
    def __init__(self, platform: Platform, http: httpx.AsyncClient, plan: ScenarioPlan) -> None:
        self.platform = platform
        self.http = http
        self.plan = plan
        self.log = PlayLog()
        self._started = time.monotonic()

    def _mark(self, what: str) -> None:
        self.log.timings[what] = round(time.monotonic() - self._started, 1)

    async def play(self) -> Played:
        plan, gateway = self.plan, self.platform.url("gateway")
        staff = await staff_session(self.http, gateway)
        players = await sign_up(
            staff,
            [f"Sng{i}" for i in range(SIT_AND_GO_SEATS)]
            + [f"Mtt{i}" for i in range(plan.scheduled_players)]
            + [f"Bettor{i}" for i in range(plan.bettors)],
        )
        sng_players = players[:SIT_AND_GO_SEATS]
        mtt_players = players[SIT_AND_GO_SEATS : SIT_AND_GO_SEATS + plan.scheduled_players]
        bettors = players[SIT_AND_GO_SEATS + plan.scheduled_players :]
        self._mark("signed_up")

        sng_definition = sit_and_go(plan.sit_and_go_level_seconds)
        sng = PlayedTournament(await self._create(staff, sng_definition), sng_definition)
        mtt_definition = rebuy_tournament(plan.scheduled_players, plan.scheduled_level_seconds)
        mtt = PlayedTournament(await self._create(staff, mtt_definition, scheduled=True), mtt_definition)
        bots = self._bots("sng", sng, sng_players) + self._bots("mtt", mtt, mtt_players)
        self.log.bots = {bot.session.player_id: bot.record for bot in bots}
        await _gathered(bot.register() for bot in bots)
        self._mark("registered")

        draw = DrawDriver(staff, f"e2e-{plan.seed}", DrawPlan.draw(random.Random(f"{plan.seed}:draw"), plan.bettors))
        await draw.announce(close_time(plan.draw_open_seconds))
        await draw.place_coupons(bettors)
        self._mark("draw_bet")

        await staff.call("POST", f"/tournaments/{mtt.tournament_id}/start")
        play_started = time.monotonic()
        self._mark("play_started")
        jobs: list[asyncio.Task[Any]] = [asyncio.create_task(bot.play()) for bot in bots]
        jobs.append(asyncio.create_task(self._settle_draw(draw, play_started)))
        if plan.faults:
            jobs.append(asyncio.create_task(inject(self.platform, plan.faults, self.log.faults)))
        jobs.append(asyncio.create_task(self._until_over(staff, {"sit_and_go": sng, "scheduled": mtt})))
        try:
            await asyncio.wait_for(asyncio.gather(*jobs), plan.play_timeout)
        except (TimeoutError, Stalled) as error:
            what = str(error) or f"the play did not end within {plan.play_timeout:.0f} s"
            self.log.stalled = (
                f"{what}: {await self._status(staff, sng, mtt, draw)}; faults so far: {self.log.faults.summary()}"
            )
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
        self._mark("play_over")
        unfinished: tuple[str, ...] = ()
        if self.log.stalled:  # check what did end: the checks name what did not
            await self._revive()
            unfinished = await self._unfinished(staff, sng, mtt, draw)
        return Played(sng, mtt, draw.draw_id, tuple(bettors), unfinished)

    async def _revive(self) -> None:
        """A fault cut short by the time-out may have left the broker stopped or a service killed."""
        await ensure_broker_running()
        for process in self.platform.services.values():
            if not process.alive:
                process.start()
        async with httpx.AsyncClient() as http:
            for process in self.platform.services.values():
                await process.wait_ready(http, self.platform.ready_timeout)

    async def _unfinished(self, staff: Session, *things: PlayedTournament | DrawDriver) -> tuple[str, ...]:
        unfinished = []
        for thing in things:
            if isinstance(thing, DrawDriver):
                if (await thing.view())["status"] != "settled":
                    unfinished.append(thing.draw_id)
            elif not _over(await staff.call("GET", f"/tournaments/{thing.tournament_id}")):
                unfinished.append(thing.tournament_id)
        return tuple(unfinished)

    async def _create(self, staff: Session, definition: TournamentDefinition, *, scheduled: bool = False) -> str:
        body: dict[str, Any] = {**definition.model_dump(mode="json"), "currency": "EUR"}
        if scheduled:  # started by hand once every bot is registered
            body["starts_at"] = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        created = await staff.call("POST", "/tournaments", json=body)
        return str(created["tournament_id"])

    def _bots(self, kind: str, tournament: PlayedTournament, players: list[Session]) -> list[TournamentBot]:
        definition = tournament.definition
        bots = []
        for index, session in enumerate(players):
            rng = random.Random(f"{self.plan.seed}:{kind}:{index}")
            plan = BotPlan.draw(
                rng,
                max_rebuys=definition.rebuy.max_rebuys if definition.rebuy else 0,
                addon_offered=definition.addon is not None,
            )
            bots.append(TournamentBot(session, tournament.tournament_id, rng, plan))
        return bots

    async def _settle_draw(self, draw: DrawDriver, play_started: float) -> None:
        await asyncio.sleep(max(0.0, play_started + self.plan.draw_settle_at - time.monotonic()))
        await draw.settle_after_close(timeout=self.plan.play_timeout)
        self._mark("draw_settled")

    async def _until_over(self, staff: Session, tournaments: dict[str, PlayedTournament]) -> None:
        """Until every tournament is over; raises `Stalled` when one stops moving (no chips change hands)."""
        pending = dict(tournaments)
        tables: dict[str, Any] = {}
        moved: dict[str, float] = {}
        while pending:
            for name, tournament in sorted(pending.items()):
                found = await staff.call("GET", f"/tournaments/{tournament.tournament_id}")
                if _over(found):
                    del pending[name]
                    self._mark(f"{name}_over")
                elif found.get("tables") != tables.get(name):
                    tables[name], moved[name] = found.get("tables"), time.monotonic()
                elif time.monotonic() - moved[name] > self.plan.stall_seconds:
                    raise Stalled(f"the {name} tournament stalled: no hand ended for {self.plan.stall_seconds:.0f} s")
            await asyncio.sleep(1.0)

    async def _status(self, staff: Session, *things: PlayedTournament | DrawDriver) -> str:
        """What was still going on when the time ran out (for the failure message)."""
        parts = []
        for thing in things:
            try:
                if isinstance(thing, DrawDriver):
                    view = await thing.view()
                    parts.append(f"draw {view['status']} {view['transfers']}")
                else:
                    found = await staff.call("GET", f"/tournaments/{thing.tournament_id}/standings")
                    left = [p for p in found["players"] if p.get("position") is None]
                    parts.append(f"{thing.tournament_id}: {len(left)} players left")
            except Exception as error:
                parts.append(f"{thing}: unreadable ({error})")
        return "; ".join(parts)


def _over(tournament: dict[str, Any]) -> bool:
    """Over, and every money step of its end (prizes, tax) posted by the wallet."""
    return tournament["status"] in ("finished", "cancelled") and bool(tournament.get("settled", True))


async def _gathered(jobs: Iterable[Coroutine[Any, Any, None]], parallel: int = 8) -> None:
    gate = asyncio.Semaphore(parallel)

    async def one(job: Coroutine[Any, Any, None]) -> None:
        async with gate:
            await job

    await asyncio.gather(*(one(job) for job in jobs))
