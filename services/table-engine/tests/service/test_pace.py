"""The pace of play: a hand is dealt no sooner than the pause after the last one, however fast the director
asks, so a table where nobody acts still plays at a bounded pace — blinds and antes posted for the players who
sit out (P-1.2, P-13.2) until the rising blinds bust one of them and the heads-up is over.

First on a pure `TableMachine` with an injected clock, then through the service (frozen clock, in-memory bus),
each time with a stand-in for the director: a StartHand at its clock's level as soon as a hand completes.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

import pytest
from platform_kit.events import Event
from platform_kit.events import table as contract
from platform_kit.testing import eventually
from pydantic import ValidationError
from table_engine.domain.fair_deal import SEED_BYTES, DeckSource
from table_engine.domain.live import LiveHand
from table_engine.domain.machine import Refusal, TableMachine, new_table
from table_engine.settings import Settings
from table_harness import START, Harness, running

E = TypeVar("E", bound=Event)

PAUSE_SECONDS = 2.0
PAUSE = timedelta(seconds=PAUSE_SECONDS)
#: The engine's default `timer_interval_seconds`: how often a kept hand is looked at.
TIMER = timedelta(seconds=0.25)
#: Through the service the timer runs every second instead: twice a pause, which still shows a hand dealt early,
#: in a quarter of the steps (each one a transaction and a relay round on SQLite).
SERVICE_TIMER = timedelta(seconds=1)
#: (small blind, big blind, ante) level after level, doubling on after the last, as the director's clock gives.
LADDER = [(10, 20, 0), (20, 40, 0), (40, 80, 5), (80, 160, 10), (160, 320, 20), (320, 640, 40), (640, 1280, 80)]
#: A turbo: 30-second levels and 500 chips, short enough to play through the service in a few seconds.
TURBO = (30, 500)
#: A sit'n'go's usual 5-minute levels and 1,500 chips.
SIT_AND_GO = (300, 1500)
#: Far more hands than either can last: a table that never ends fails instead of looping forever.
MOST_HANDS = 5000


def level_at(now: datetime, level_seconds: int = TURBO[0]) -> contract.Level:
    """The director's level clock, started at START."""
    number = int((now - START).total_seconds()) // level_seconds
    small, big, ante = LADDER[min(number, len(LADDER) - 1)]
    doubling = 2 ** max(0, number - len(LADDER) + 1)
    return contract.Level(small_blind=small * doubling, big_blind=big * doubling, ante=ante * doubling)


def most_hands_in_a_minute(starts: list[datetime]) -> int:
    """The most hands dealt within any 60 seconds (`starts` in order)."""
    return max(bisect_left(starts, start + timedelta(minutes=1)) - i for i, start in enumerate(starts))


def assert_paced(starts: list[datetime]) -> None:
    assert all(later - earlier >= PAUSE for earlier, later in pairwise(starts))
    assert most_hands_in_a_minute(starts) <= 60 / PAUSE_SECONDS


class PureTable:
    """One table driven as the host drives it, without I/O: each step is a `TableMachine` on the table's state
    at the injected time `now`. Keeps what was published, each event with the time it was published at."""

    def __init__(self, stacks: tuple[int, ...]) -> None:
        seats = [contract.SeatedPlayer(seat=n, player_id=f"p{n}", stack=stack) for n, stack in enumerate(stacks, 1)]
        command = contract.OpenTable(
            table_id="pace", tournament_id="t-pace", max_seats=9, betting_structure="no_limit", seats=seats
        )
        self.now = START
        self.rng = random.Random(7)
        self.table = new_table(command, shard=0, now=START, draw_button=min, draw_seed=self.new_seed)
        self.live: LiveHand | None = None
        self.published: list[tuple[datetime, Event]] = []
        self.hand_no = 0

    def step(self, apply: Callable[[TableMachine], object]) -> None:
        machine = TableMachine(self.table, self.live, self.now)
        apply(machine)
        machine.sync_stacks()
        self.live = machine.live
        self.published.extend((self.now, event) for event in machine.effects.messages)

    def new_seed(self) -> bytes:  # the table's `Dealer`
        return self.rng.randbytes(SEED_BYTES)

    def deal(self, source: DeckSource) -> tuple[str, list[int]]:
        return f"hand-{len(self.published)}", source.deck()

    def everyone_sits_out(self) -> None:
        for player in [seat.player_id for seat in self.table.seats.values()]:
            self.sit_out(player)

    def sit_out(self, player_id: str) -> None:
        self.step(lambda m: m.set_sitting_out(player_id, True))

    def ask_for_hand(self, level: contract.Level) -> None:
        """The director's StartHand for the next hand (raises `Refusal` if the table refuses it)."""
        command = contract.StartHand(table_id="pace", hand_no=self.hand_no + 1, level=level)
        self.step(lambda m: m.start_hand(command, self, PAUSE))
        self.hand_no += 1

    def run_timer(self) -> None:
        """Let the timer run until the kept hand is dealt."""
        while self.table.next_hand is not None:
            self.now += TIMER
            self.step(lambda m: m.clock(self))

    def events(self, kind: type[E], since: int = 0) -> list[tuple[datetime, E]]:
        """What was published (from the `since`-th message on)."""
        return [(at, event) for at, event in self.published[since:] if isinstance(event, kind)]

    def last(self, kind: type[E], since: int = 0) -> E:
        found = self.events(kind, since)
        assert found, f"no {kind.TYPE} was published"
        return found[-1][1]

    def starts(self) -> list[datetime]:
        return [at for at, _ in self.events(contract.HandStarted)]


def test_a_start_hand_within_the_pause_is_kept_and_dealt_when_the_pause_is_over() -> None:
    table = PureTable((1000, 1000, 1000))
    table.ask_for_hand(level_at(START))
    assert table.starts() == [START]  # a table's first hand waits for nothing
    table.everyone_sits_out()  # the hand plays itself out at once
    ended = table.table.hand_ended_at
    assert ended == START and table.live is None

    table.now += timedelta(seconds=0.5)
    table.ask_for_hand(level_at(START))
    waiting = table.table.next_hand
    assert waiting is not None and (waiting.hand_no, waiting.due_at) == (2, ended + PAUSE)
    table.now = ended + PAUSE - timedelta(milliseconds=1)
    table.step(lambda m: m.clock(table))
    assert table.starts() == [START]

    table.now = ended + PAUSE
    table.step(lambda m: m.clock(table))
    assert table.starts() == [START, ended + PAUSE]
    assert table.last(contract.HandStarted).hand_no == 2 and table.table.next_hand is None


def test_a_start_hand_after_the_pause_is_dealt_at_once() -> None:
    table = PureTable((1000, 1000))
    table.ask_for_hand(level_at(START))
    table.everyone_sits_out()
    table.now += PAUSE + timedelta(seconds=3)
    table.ask_for_hand(level_at(START))
    assert table.starts() == [START, table.now]


def test_the_table_keeps_one_hand_and_chips_bought_meanwhile_wait_for_its_end() -> None:
    table = PureTable((1000, 1000, 1000))
    table.ask_for_hand(level_at(START))
    table.everyone_sits_out()
    table.ask_for_hand(level_at(START))
    with pytest.raises(Refusal) as refused:
        table.ask_for_hand(level_at(START))
    assert refused.value.code == "hand_in_progress"
    # The director counts the kept hand as started: a rebuy or add-on bought meanwhile is credited after it,
    # so the hand starts with the stacks the director has on record.
    after_first = table.table.seats[1].stack
    table.step(lambda m: m.add_chips("p1", 500))
    table.run_timer()
    started, completed = table.last(contract.HandStarted), table.last(contract.HandCompleted)
    assert {s.player_id: s.stack for s in started.seats}["p1"] == after_first
    assert table.table.seats[1].stack == {r.player_id: r.end_stack for r in completed.results}["p1"] + 500


def test_a_kept_hand_the_seats_cannot_make_any_more_is_rejected_to_the_director() -> None:
    table = PureTable((1000, 1000))
    table.ask_for_hand(level_at(START))
    table.everyone_sits_out()
    table.ask_for_hand(level_at(START))
    table.step(lambda m: m.unseat_player("p2", "disqualified"))
    table.run_timer()
    rejected = table.last(contract.CommandRejected)
    assert (rejected.command, rejected.code) == ("table.next_hand", "cannot_deal")
    assert table.starts() == [START] and table.table.next_hand is None


def test_closing_the_table_drops_the_kept_hand_and_credits_the_chips_bought_meanwhile() -> None:
    table = PureTable((1000, 1000))
    table.ask_for_hand(level_at(START))
    table.everyone_sits_out()
    table.ask_for_hand(level_at(START))
    stack = table.table.seats[1].stack
    table.step(lambda m: m.add_chips("p1", 500))
    table.step(lambda m: m.close("table_broken"))
    table.now += PAUSE
    table.step(lambda m: m.clock(table))
    assert table.table.next_hand is None and table.starts() == [START]
    assert (table.table.seats[1].stack, table.table.seats[1].pending_chips) == (stack + 500, 0)


def test_p1_2_p13_2_players_sitting_out_post_blinds_and_antes_and_are_folded() -> None:
    table = PureTable((1000, 1000, 1000))
    table.everyone_sits_out()
    table.ask_for_hand(contract.Level(small_blind=50, big_blind=100, ante=10))
    posts = [(e.seat, e.action, e.amount, e.automatic) for _, e in table.events(contract.ActionTaken)]
    # Button seat 1: antes from its left, seat 2 posts the small blind, seat 3 the big blind; then seat 1 and
    # seat 2, facing the big blind, are folded for (checking is not free).
    assert posts == [
        (2, "post_ante", 10, None),
        (3, "post_ante", 10, None),
        (1, "post_ante", 10, None),
        (2, "post_small_blind", 50, None),
        (3, "post_big_blind", 100, None),
        (1, "fold", 0, "sitting_out"),
        (2, "fold", 0, "sitting_out"),
    ]
    completed = table.last(contract.HandCompleted)
    assert {r.player_id: r.end_stack for r in completed.results} == {"p1": 990, "p2": 940, "p3": 1070}


@pytest.mark.parametrize(("level_seconds", "stack"), [TURBO, SIT_AND_GO], ids=["turbo", "sit_and_go"])
def test_p1_2_p13_2_a_heads_up_where_nobody_acts_plays_at_the_pace_and_blinds_someone_out(
    level_seconds: int, stack: int
) -> None:
    table = PureTable((stack, stack))
    table.everyone_sits_out()
    assert table.table.nobody_acting
    busted: list[str] = []
    while not busted and table.hand_no < MOST_HANDS:
        asked_at, mark = table.now, len(table.published)
        table.ask_for_hand(level_at(asked_at, level_seconds))  # at once: the director answers every hand
        table.run_timer()
        assert table.last(contract.HandStarted, mark).level == level_at(asked_at, level_seconds)
        busted = list(table.last(contract.HandCompleted, mark).busted_player_ids)

    starts = table.starts()
    assert busted and len(starts) == table.hand_no < MOST_HANDS
    assert_paced(starts)
    assert level_at(starts[-1], level_seconds).big_blind > LADDER[0][1]  # the blinds rose until one busted
    _forced_bets_are_the_levels(table)
    print(  # the figures for the record (pytest -s)
        f"\npure, {level_seconds} s levels, {stack} chips: {len(starts)} hands in "
        f"{(starts[-1] - START).total_seconds():.0f} simulated s, at most {most_hands_in_a_minute(starts)} a "
        f"minute; {busted} busted at {table.last(contract.HandStarted).level}"
    )


def _forced_bets_are_the_levels(table: PureTable) -> None:
    """P-1.2: every player dealt in posts the ante, the blinds post theirs — all in when short; the rest is
    played for them as they sit out (P-13.2)."""
    started = {event.hand_id: event for _, event in table.events(contract.HandStarted)}
    for _, taken in table.events(contract.ActionTaken):
        hand = started[taken.hand_id]
        level = hand.level
        stack = {s.seat: s.stack for s in hand.seats}[taken.seat]
        behind = stack - min(level.ante, stack)
        forced = {
            "post_ante": min(level.ante, stack),
            "post_small_blind": min(level.small_blind, behind),
            "post_big_blind": min(level.big_blind, behind),
        }
        if taken.action in forced:
            assert taken.amount == forced[taken.action], (taken, level, stack)
        else:
            assert taken.automatic == "sitting_out", taken


async def test_a_heads_up_of_two_absent_players_through_the_service_plays_at_its_pace_and_ends(
    tmp_path: Path,
) -> None:
    level_seconds, stack = TURBO
    async with running(tmp_path / "pace.db", rng=random.Random(3), hand_pause_seconds=PAUSE_SECONDS) as service:
        await service.open_table("absent", stacks=(stack, stack), max_seats=2)
        for player in ("p1", "p2"):
            await service.send(contract.SetSittingOut(table_id="absent", player_id=player, sitting_out=True))
        assert (await service.get("/v1/tables/absent")).json()["nobody_acting"] is True
        assert "table_nobody_acting_tables 1.0" in (await service.get("/metrics")).text

        starts, busted = await _play_until_someone_busts(service, level_seconds)

        assert busted and len(starts) < MOST_HANDS
        assert_paced(starts)
        print(  # the figures for the record (pytest -s)
            f"\nservice, {level_seconds} s levels, {stack} chips: {len(starts)} hands in "
            f"{(starts[-1] - START).total_seconds():.0f} simulated s, at most {most_hands_in_a_minute(starts)} "
            f"a minute; {busted} busted at {service.last(contract.HandStarted).level}"
        )
        await service.send(contract.SetSittingOut(table_id="absent", player_id="p1", sitting_out=False))
        assert (await service.get("/v1/tables/absent")).json()["nobody_acting"] is False
        assert "table_nobody_acting_tables 0.0" in (await service.get("/metrics")).text


async def _play_until_someone_busts(service: Harness, level_seconds: int) -> tuple[list[datetime], list[str]]:
    """The director's part: a StartHand at its clock's level as soon as a hand completes, while the engine's
    timer runs every `SERVICE_TIMER`. The times the hands were dealt at, and who busted."""
    starts: list[datetime] = []
    seen = 0
    for hand_no in range(1, MOST_HANDS):
        level = level_at(service.clock.now(), level_seconds)
        await service.send(contract.StartHand(table_id="absent", hand_no=hand_no, level=level))
        completed: contract.HandCompleted | None = None
        while completed is None:
            fresh = [envelope.event() for _, envelope in service.messages()[seen:]]
            seen += len(fresh)
            if any(isinstance(event, contract.HandStarted) for event in fresh):
                starts.append(service.clock.now())
            completed = next((e for e in fresh if isinstance(e, contract.HandCompleted)), None)
            if completed is None:
                await service.tick(SERVICE_TIMER.total_seconds())
        if completed.busted_player_ids:
            return starts, list(completed.busted_player_ids)
    return starts, []


async def test_a_kept_hand_survives_a_restart_and_is_dealt_once(tmp_path: Path) -> None:
    database = tmp_path / "kept.db"
    async with running(database, hand_pause_seconds=PAUSE_SECONDS) as before:
        await before.open_table("kept")
        first = await before.start_hand("kept")
        for player in ("p1", "p2"):
            await before.act("kept", first, player, "fold")
        await before.send(contract.StartHand(table_id="kept", hand_no=2, level=level_at(START)))
        view = (await before.get("/v1/tables/kept")).json()
        assert view["hand"] is None and view["next_hand_at"] == (START + PAUSE).isoformat().replace("+00:00", "Z")
        clock = before.clock
    # The process stopped while the hand waited for its pause; it comes back after the pause.
    clock.advance(PAUSE)
    async with running(database, clock=clock, hand_pause_seconds=PAUSE_SECONDS) as after:
        await after.tick(1)  # the start-up already ran the timer once

        async def dealt() -> list[contract.HandStarted]:
            # The shard's own timer loop may be dealing it in a transaction not yet committed when `tick` settles.
            await after.settle()
            return after.events(contract.HandStarted)

        assert [(e.hand_no, e.level) for e in await eventually(dealt)] == [(2, level_at(START))]
        assert not after.events(contract.HandVoided) and not after.events(contract.CommandRejected)
        assert (await after.get("/v1/tables/kept")).json()["next_hand_at"] is None


def test_a_deployed_shard_never_deals_faster_than_a_hand_a_second() -> None:
    assert Settings().hand_pause_seconds == PAUSE_SECONDS  # the shipped default
    with pytest.raises(ValidationError, match="hand_pause_seconds"):
        Settings(bus_url="amqp://guest:guest@127.0.0.1:5672/", hand_pause_seconds=0.5)
    assert Settings(bus_url="amqp://guest:guest@127.0.0.1:5672/", hand_pause_seconds=1).hand_pause_seconds == 1
