"""The three scenarios, driven from the coordinator: staff set up (through the gateway, like an operator), the
load generators' bots do the playing and betting, and the coordinator watches until it is over.

- `mtt`: N players sign up, register for one scheduled tournament within the window, staff start it, the bots
  play it (at human pace for a while, then fast, or fast from the start) to the end;
- `sng`: K nine-player sit'n'gos; their players register within the window (each starts when full) and play
  them to the end;
- `toto-rush`: bettors place C coupons (singles and systems) in the window before the draw closes; then the
  close, the eight results, the settlement and the payouts.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from harness.client import Session
from harness.definitions import BUY_IN, STACK, fast_blinds, sit_and_go
from harness.draw import MATCHES, MIN_STAKE_CENTS, SCORES, Coupon, DrawDriver, DrawPlan, close_time, label
from harness.verdict import PlayedTournament
from tournament_director.domain.definition import TournamentDefinition, revise
from tournament_director.domain.templates import scheduled_mtt

from capacity.checks import Played
from capacity.fleet import Fleet
from capacity.loadgen import PaceSpec
from capacity.options import FAST_THINK, SEATS_PER_TABLE, Options

#: Bets close this long after the window in which the coupons are sent.
CLOSE_MARGIN_SECONDS = 5.0
WATCH_SECONDS = 2.0
WATCH_PARALLEL = 8
#: Tournaments the watcher looks at a second at most: a look is a staff `GET /tournaments/{id}` (the definition,
#: the clock, the tables) through the gateway and the director. Every 2 s, a hundred sit'n'gos were 50 looks a
#: second, five times the bots' actions, and the director's largest single cost (11 % of its samples, py-spy).
WATCH_LOOKS_PER_SECOND = 10.0
BOTS_PATIENCE_SECONDS = 60.0


class Stalled(Exception):
    pass


@dataclass
class Stage:
    """What a scenario works with, and what it records: phase timings and why the play did not end, if not."""

    options: Options
    fleet: Fleet
    staff: Session
    timings: dict[str, float] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    error: str | None = None
    #: The monotonic instant the timings count from (the run's start).
    started: float = field(default_factory=time.monotonic)

    def mark(self, what: str) -> None:
        self.timings[what] = round(time.monotonic() - self.started, 1)

    async def sign_up(self, prefix: str, count: int) -> None:
        nicknames = [f"{prefix}{n:05d}" for n in range(count)]
        answers = await self.fleet.split("sign_up", {"nicknames": nicknames})
        self.players = [player for answer in answers for player in answer["players"]]
        self.mark("signed up")

    async def create(self, definition: TournamentDefinition, *, scheduled: bool = False) -> PlayedTournament:
        body: dict[str, Any] = {**definition.model_dump(mode="json"), "currency": "EUR"}
        if scheduled:  # started by hand once every bot is registered
            body["starts_at"] = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        created = await self.staff.call("POST", "/tournaments", json=body)
        return PlayedTournament(str(created["tournament_id"]), definition)

    async def play(self, tournaments: list[PlayedTournament], per_player: list[str], **register: Any) -> None:
        """The bots play (`per_player`: each player's tournament) while the coordinator watches the tournaments
        until every one is over; a stall or the play time-out halts the bots and is the run's error."""
        o = self.options
        pace = PaceSpec(o.think_range, FAST_THINK, o.human_seconds)
        deadline = o.play_timeout + 60.0
        bots = asyncio.create_task(
            self.fleet.split("play", {"tournaments": per_player}, pace=pace, deadline=deadline, **register)
        )
        self.mark("play started")
        over = False
        try:
            await asyncio.wait_for(self._until_over(tournaments), o.play_timeout)
            over = True
        except (TimeoutError, Stalled) as error:
            self.error = str(error) or f"the play did not end within {o.play_timeout:.0f} s"
        finally:
            self.mark("play over")
            await self._stop_bots(bots, patience=BOTS_PATIENCE_SECONDS if over else 0.0)

    async def _stop_bots(self, bots: asyncio.Task[list[Any]], patience: float) -> None:
        """Bots end by themselves once their tournament is over; those that missed the end (a lost message, a
        stall) are halted after `patience` seconds — the checks say whether it matters."""
        done, _ = await asyncio.wait([bots], timeout=patience) if patience else (set(), set())
        if not done:
            self.fleet.halt()
        await bots

    async def _until_over(self, tournaments: list[PlayedTournament]) -> None:
        """Until every tournament is over; `Stalled` when one shows no progress (`progress`) for too long."""
        pending = {t.tournament_id: t for t in tournaments}
        seen_last: dict[str, Any] = {}
        moved = dict.fromkeys(pending, time.monotonic())
        gate = asyncio.Semaphore(WATCH_PARALLEL)

        async def look(tournament_id: str) -> dict[str, Any]:
            async with gate:
                found: dict[str, Any] = await self.staff.call("GET", f"/tournaments/{tournament_id}")
                return found

        while pending:
            views = await asyncio.gather(*(look(tournament_id) for tournament_id in pending))
            for view in views:
                tournament_id = str(view["tournament_id"])
                if view["status"] in ("finished", "cancelled") and view.get("settled", True):
                    del pending[tournament_id]
                elif (seen := progress(view)) != seen_last.get(tournament_id):
                    seen_last[tournament_id], moved[tournament_id] = seen, time.monotonic()
                elif time.monotonic() - moved[tournament_id] > self.options.stall_after:
                    raise Stalled(f"tournament {tournament_id} stalled ({view['status']}): no change at its tables or registrations "
                                  f"for {self.options.stall_after:.0f} s; {len(pending)} tournaments not over")  # fmt: skip
            # Well inside `stall_after` (90 s at least): a round of a hundred takes 10 s.
            await asyncio.sleep(max(WATCH_SECONDS, len(pending) / WATCH_LOOKS_PER_SECOND))


def progress(view: dict[str, Any]) -> tuple[Any, Any, Any]:
    """What moves while a tournament is alive: its status, its registrations (a sit'n'go filling up has no
    tables yet) and its tables."""
    return view["status"], view.get("registered"), view.get("tables")


async def mtt(stage: Stage) -> Played:
    o = stage.options
    definition = revise(
        scheduled_mtt("capacity mtt", BUY_IN, min_players=10, max_players=o.players),
        starting_stack=STACK,
        blinds=fast_blinds(o.blind_level_seconds),
    )
    tournament = await stage.create(definition, scheduled=True)
    await stage.sign_up("Cap", o.players)
    everyone = [tournament.tournament_id] * len(stage.players)
    await stage.fleet.split("register", {"tournaments": everyone}, window=o.window)
    stage.mark("registered")
    await stage.staff.call("POST", f"/tournaments/{tournament.tournament_id}/start")
    await stage.play([tournament], everyone)
    return Played(tournaments=(tournament,))


async def sng(stage: Stage) -> Played:
    o = stage.options
    definition = sit_and_go(o.blind_level_seconds)
    tournaments = [await stage.create(definition) for _ in range(o.tables)]
    await stage.sign_up("Sng", SEATS_PER_TABLE * o.tables)
    per_player = [tournaments[n // SEATS_PER_TABLE].tournament_id for n in range(len(stage.players))]
    await stage.play(tournaments, per_player, register_window=o.window)
    return Played(tournaments=tuple(tournaments))


async def toto_rush(stage: Stage) -> Played:
    o = stage.options
    await stage.sign_up("Bet", o.bettors)
    rng = random.Random(f"{o.seed}:draw")
    coupons = coupon_plan(rng, o.coupons, o.bettors, o.system_share)
    scores = tuple(rng.choice(SCORES) for _ in range(MATCHES))
    draw = DrawDriver(stage.staff, f"capacity-{o.seed}", DrawPlan(tuple(map(tuple, coupons)), scores))
    await draw.announce(close_time(o.window + CLOSE_MARGIN_SECONDS))
    stage.mark("draw announced")
    await stage.fleet.split("bet", {"coupons": coupons}, draw_id=draw.draw_id, window=o.window)
    stage.mark("coupons placed")
    try:
        await draw.settle_after_close(timeout=o.play_timeout)
    except AssertionError as error:  # stuck: the checks say where
        stage.error = str(error)
    stage.mark("closed, settled and paid")
    return Played(draw_id=draw.draw_id, bettors=tuple(stage.players))


def coupon_plan(rng: random.Random, coupons: int, bettors: int, system_share: float) -> list[list[Coupon]]:
    """`coupons` coupons dealt round the bettors: singles (one result per match) and, `system_share` of them,
    systems with one to three matches on two results (2 to 8 bets, T-2.4)."""
    plan: list[list[Coupon]] = [[] for _ in range(bettors)]
    for n in range(coupons):
        doubled = set(rng.sample(range(MATCHES), rng.choice((1, 2, 3)))) if rng.random() < system_share else set()
        picks = tuple(
            tuple(sorted(label(s) for s in rng.sample(SCORES, 2 if match in doubled else 1)))
            for match in range(MATCHES)
        )
        plan[n % bettors].append(Coupon(amount=MIN_STAKE_CENTS * 2 ** len(doubled) * rng.randint(1, 3), picks=picks))
    return plan


SCENARIOS: dict[str, Callable[[Stage], Awaitable[Played]]] = {"mtt": mtt, "sng": sng, "toto-rush": toto_rush}
