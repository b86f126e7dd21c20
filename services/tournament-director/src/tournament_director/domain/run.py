"""One running tournament as a pure, synchronous state machine: facts in, commands and events out.

`TournamentRun` is what the director service (asynchronously, one event at a time) and the simulator (in one
process) both drive. It does no I/O and reads no clock: every call takes `now`; randomness (seating, P-5) comes
from the `rng` it is given — `random.SystemRandom()` in production. Each call returns the messages
(`run_messages`: the kit's event contracts) to carry out and publish, in order. A call that cannot be taken
raises `RunError` and changes nothing (except that the run's time moves forward to `now`).

Driving it::

    run, messages = TournamentRun.start("t-42", definition, players, rng, now)   # seats, OpenTable, StartHand…
    messages = run.on_hand_completed(fact, now)        # a table finished a hand (table engine's HandCompleted)
    messages = run.on_clock(now)                       # at run.next_clock_change(): levels and breaks (P-7)
    messages = run.rebuy(player, now)                  # after the wallet took the money; or decline_rebuy
    messages = run.addon(player, now)                  # during an add-on break (P-4.3)
    messages = run.disqualify(player, now)             # P-12.5;  run.penalize(player, places)  P-12.3
    messages = run.pause(now, reason); run.resume(now) # a technical problem: the clock stops, no new hands
    cancellation = run.cancel(now, reason)             # P-10: case, settlement, messages
    run.outcome                                        # once over: ranking, prizes, pool, tax base, events
    data = run.to_json(); run = TournamentRun.restore(data, rng)                 # persistence
    text = run.snapshot()                                                         # to_json() as JSON text

**Persistence: snapshots.** `to_json()` is a JSON-able dict of the whole state (`run_state`); the service stores
it as `snapshot()` text after each call (in the same transaction as the outbox messages) and `restore`s it on
restart. The elimination log is kept as the list of calls made on it and replayed on restore.

How a completed hand is handled (what the service can rely on):
1. Stacks are taken from the fact (P-10: only completed hands count); the players who end without chips are
   busted. During the rebuy period those with rebuys left get an `OfferRebuy` and their table waits (status
   SETTLING) until every offer is answered; the others' busts wait with them, so a hand's busts are always
   recorded together.
2. Busts are recorded in the `EliminationLog` (P-2.1–P-2.3) and announced with their positions
   (`PlayerEliminated`); busted players are unseated. Hands of a hand-for-hand round (P-6.6) are recorded
   together when the round's last table is done, so that busts on different tables tie (P-2.4); until then
   the round's tables wait and nothing moves.
3. The tables are planned (P-6) and the tables that may deal get a `StartHand` at the clock's level (P-7.1,
   P-7.2, P-6.6) — see `run_tables`, which also gives the tables' bus ids.
4. When one player is left the run finishes: `TournamentFinished` with the ranking and prizes, tables closed.
   Facts about a table closed that way (a hand still running when a disqualification ended the tournament)
   are refused with `RunError`: the service drops them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any, Literal

from platform_kit.events.table import AddChips, CloseTable, HandCompleted, Level, SeatedPlayer, StartHand, UnseatPlayer
from platform_kit.events.tournament import (
    AddonOffered,
    LevelChanged,
    PlayerEliminated,
    TournamentCancelled,
    TournamentPaused,
    TournamentResumed,
    TournamentStarted,
)

from tournament_director.domain import jackpots
from tournament_director.domain.blind_clock import BlindClock, ClockReading
from tournament_director.domain.cancellation import CancellationCase, CancellationSettlement, settle_cancellation
from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.entries import Entry, EntryKind, PaymentForm
from tournament_director.domain.kinds import TableMode
from tournament_director.domain.payouts import PrizeTable
from tournament_director.domain.prize_pool import PoolFunding
from tournament_director.domain.ranking import Bust, EliminationLog, PlayerId, seats_from_button
from tournament_director.domain.rebuy_addon import PlayerPurchases, PurchaseRefusal, addon_refusal, rebuy_refusal
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.domain.run_results import (
    TournamentOutcome,
    cancellation_case,
    finish,
    pool_funding,
    prize_table,
    refunds,
    showdown_jackpot_qualifiers,
)
from tournament_director.domain.run_seating import LiveSeating
from tournament_director.domain.run_state import (
    LogEntry,
    PendingBust,
    RunState,
    SnapshotWriter,
    TablePlay,
    TableStatus,
    state_from_json,
    state_to_json,
)
from tournament_director.domain.run_tables import TableFlow, UnknownTable
from tournament_director.domain.seating import initial_seating
from tournament_director.domain.table_planner import shootout_byes


class RunError(ValueError):
    """A call the run cannot accept: an unknown table or player, a fact out of order, a refused purchase…"""


@dataclass(frozen=True)
class Cancellation:
    """P-10: the calculator's input (state after the last completed hand), its settlement, and the messages."""

    case: CancellationCase
    settlement: CancellationSettlement
    messages: tuple[Message, ...]


def default_entry(definition: TournamentDefinition) -> Entry:
    """What a registration is worth when the service gives no entry: the buy-in paid in cash, or for a freeroll
    the concessionaire's sponsored entry (P-9.2)."""
    if definition.freeroll is not None and definition.freeroll.sponsored_entry is not None:
        return Entry(EntryKind.SPONSORED, definition.freeroll.sponsored_entry)
    return Entry(EntryKind.BUY_IN, definition.entry_price, PaymentForm.CASH)


class TournamentRun:
    """A running tournament (see the module docstring). Build it with `start` or `restore`."""

    def __init__(self, state: RunState, rng: random.Random) -> None:
        self._state = state
        self._clock = BlindClock(state.definition.blinds, state.started_at)
        self._seating = LiveSeating(state, state.definition.tables)
        self._tables = TableFlow(state, self._seating, rng, prize_table(state).paid_places)
        self._log = EliminationLog(state.entries)
        for entry in state.log:
            if entry.operation == "busts":
                self._log.record_busts(entry.busts)
            elif entry.operation == "disqualify":
                self._log.disqualify(entry.player_id)
            else:
                self._log.penalize(entry.player_id, entry.places)
        #: len(self._log.remaining), kept here: the log hands out a fresh frozenset each time it is asked.
        self._left = len(self._log.remaining)
        self._outcome = finish(state, self._log, state.finished_at) if state.finished_at is not None else None
        #: Prizes by position on the pool as it stands; reset when an entry is bought.
        self._prizes: PrizeTable | None = None
        self._clock_cache: tuple[datetime, ClockReading] | None = None
        #: Tables whose hand was settled and not planned yet.
        self._just_settled: list[int] = []
        self._snapshots = SnapshotWriter()

    # ---------------------------------------------------------------------------------------------- lifecycle

    @classmethod
    def start(
        cls,
        tournament_id: str,
        definition: TournamentDefinition,
        players: Sequence[PlayerId],
        rng: random.Random,
        now: datetime,
        *,
        currency: str,
        entries: Mapping[PlayerId, Entry] | None = None,
        jackpot_programmes: Sequence[jackpots.JackpotProgramme] = (),
    ) -> tuple[TournamentRun, tuple[Message, ...]]:
        """Seat `players` at random (P-5.1) on the fewest tables (P-6.1) and deal the first hands; prizes are
        announced in `currency`, the tournament's.

        `entries` says how each player entered (default: `default_entry`). A field outside the definition's
        minimum and maximum is refused: below the minimum the service cancels and refunds (P-3.2)."""
        if len(set(players)) != len(players):
            raise RunError("a player is registered twice")
        if not definition.min_players <= len(players) <= definition.max_players:
            raise RunError(
                f"{len(players)} players: this tournament starts with {definition.min_players} to "
                f"{definition.max_players} (P-3.1, P-3.2)"
            )
        entries = entries or {}
        layout = initial_seating(players, definition.tables.seats_per_table, rng)
        state = RunState(
            tournament_id=tournament_id,
            currency=currency,
            definition=definition,
            jackpots=tuple(jackpot_programmes),
            started_at=now,
            now=now,
            clock_mark=(0, False),
            tables={table.table_id: TablePlay(seats=dict(table.seats)) for table in layout.tables},
            chips=dict.fromkeys(players, definition.starting_stack),
            entries={player: [entries.get(player) or default_entry(definition)] for player in players},
            purchases={player: PlayerPurchases() for player in players},
        )
        run = cls(state, rng)
        tables = [run._tables.key(table_id) for table_id in state.tables]
        out: list[Message] = [TournamentStarted(tournament_id=tournament_id, players=len(players), tables=tables)]
        out.extend(run._tables.open(table_id) for table_id in sorted(state.tables))
        if definition.tables.mode is TableMode.SHOOTOUT:
            run._tables.carry_out(shootout_byes(layout, definition.tables), out)
        run._after_change(out)
        return run, tuple(out)

    @classmethod
    def restore(cls, data: dict[str, Any], rng: random.Random) -> TournamentRun:
        """The run `to_json` saved, going on with `rng`."""
        return cls(state_from_json(data), rng)

    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON-able dict (see `run_state`)."""
        return state_to_json(self._state)

    def snapshot(self) -> str:
        """`to_json()` as JSON text, what the service saves after every call: encoded again only where the state
        changed since the last snapshot (`SnapshotWriter`)."""
        return self._snapshots.text(self._state)

    # ------------------------------------------------------------------------------------------------ queries

    @property
    def tournament_id(self) -> str:
        return self._state.tournament_id

    @property
    def definition(self) -> TournamentDefinition:
        return self._state.definition

    @property
    def is_over(self) -> bool:
        return self._state.finished_at is not None or self._state.cancelled

    @property
    def outcome(self) -> TournamentOutcome | None:
        """The final ranking and prizes, once the tournament finished."""
        return self._outcome

    @property
    def players_left(self) -> frozenset[PlayerId]:
        """Players neither eliminated nor disqualified (a player deciding on a rebuy is still in)."""
        return self._log.remaining

    @property
    def chips(self) -> Mapping[PlayerId, int]:
        """Seated players' chips after their latest completed hand (chips bought since not included)."""
        return MappingProxyType(self._state.chips)

    @property
    def chips_in_play(self) -> int:
        """Every chip seated players hold or have bought, as of their latest completed hands."""
        return sum(self._state.chips.values()) + sum(self._state.bought_in_hand.values())

    @property
    def entries(self) -> Mapping[PlayerId, tuple[Entry, ...]]:
        """Every entry each entrant paid so far (buy-in, rebuys, add-ons), in order (P-8.2, P-8.7)."""
        return MappingProxyType({player: tuple(entries) for player, entries in self._state.entries.items()})

    @property
    def chips_removed(self) -> int:
        """Chips that left play with disqualified players (P-12.5)."""
        return self._state.chips_removed

    def prize_pool(self) -> PoolFunding:
        """The prize pool as it stands (P-8.2, P-8.3): it grows with rebuys and add-ons."""
        return pool_funding(self._state)

    def prizes(self) -> PrizeTable:
        """What each position wins with the pool as it stands (cash, or a satellite's seats, P-3.4)."""
        return self._current_prizes()

    @property
    def hands_completed(self) -> int:
        return self._state.hands_completed

    @property
    def level(self) -> tuple[int, bool]:
        """The blind level number as last announced, and whether on a break."""
        return self._state.clock_mark

    @property
    def hand_for_hand(self) -> bool:
        return self._state.hand_for_hand

    def tables(self) -> dict[str, tuple[SeatedPlayer, ...]]:
        """Every open table's players by seat, with their chips after their latest completed hand."""
        chips = self._state.chips
        return {
            self._tables.key(table_id): tuple(
                SeatedPlayer(seat=seat, player_id=player, stack=chips[player])
                for seat, player in sorted(table.seats.items())
            )
            for table_id, table in sorted(self._state.tables.items())
        }

    def table_sizes(self) -> dict[str, int]:
        return {self._tables.key(table_id): len(table.seats) for table_id, table in sorted(self._state.tables.items())}

    def size_gap(self) -> int:
        """Largest table size minus smallest (P-6.3)."""
        return self._seating.size_gap()

    def seat_of(self, player_id: PlayerId) -> tuple[str, int] | None:
        """(table id, seat) of a seated player."""
        table_id = self._seating.table_of(player_id)
        if table_id is None:
            return None
        seat = next(seat for seat, player in self._state.tables[table_id].seats.items() if player == player_id)
        return self._tables.key(table_id), seat

    @property
    def started_at(self) -> datetime:
        return self._state.started_at

    @property
    def now(self) -> datetime:
        """The latest time the run was told about: a call with an earlier `now` is refused."""
        return self._state.now

    def on_hand_voided(self, table_id: str, hand_no: int) -> tuple[Message, ...]:
        """The table engine voided hand `hand_no` of `table_id` (a crash, P-10): every stack is back at the hand's
        start and the chips bought during it (rebuys, add-ons) were added at once, so they are credited here too
        before the hand is dealt again at the same level. Anything else (an old hand, a closed table) is ignored."""
        start = self.hand_in_progress(table_id)
        if start is None or start.hand_no != hand_no:
            return ()
        table = self._state.tables[self._tables.number(table_id)]
        for player in table.seats.values():
            self._state.chips[player] += self._state.bought_in_hand.pop(player, 0)
        return (start,)

    def hand_in_progress(self, table_id: str) -> StartHand | None:
        """The `StartHand` of the hand `table_id` (a bus id) is playing, or None. The service deals it again when
        the table engine voided it (a crash: every stack is back at the hand's start, as the run has on record,
        P-10)."""
        try:
            number = self._tables.number(table_id)
        except UnknownTable:
            return None
        table = self._state.tables[number]
        if self.is_over or table.status is not TableStatus.PLAYING:
            return None
        blinds = self._state.definition.blinds
        level = blinds.levels[table.hand_level - 1]
        played = Level(
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            big_blind_ante=blinds.big_blind_ante,
        )
        return StartHand(table_id=table_id, hand_no=table.hand_no, level=played)

    def next_clock_change(self) -> datetime | None:
        """When the level or break changes next (call `on_clock` then); None in the last level, or while paused
        (the clock stands still)."""
        if self._state.paused_at is not None:
            return None
        reading = self._reading()
        return None if reading.remaining is None else self._state.now + reading.remaining

    def clock_reading(self) -> ClockReading:
        """The blind clock at the run's time, pauses left out."""
        return self._reading()

    @property
    def paused_at(self) -> datetime | None:
        """Since when the director has paused the tournament, or None."""
        return self._state.paused_at

    # ------------------------------------------------------------------------------------------------ pausing

    def pause(self, now: datetime, reason: str) -> tuple[Message, ...]:
        """A technical problem: the blind clock stops and no new hand is dealt; hands in progress finish and are
        taken as usual. Purchases keep their rules (the clock's level and break stand still with it)."""
        self._check_running()
        if self._state.paused_at is not None:
            raise RunError("the tournament is already paused")
        self._set_time(now)
        self._state.paused_at = now
        return (TournamentPaused(tournament_id=self._state.tournament_id, reason=reason),)

    def resume(self, now: datetime) -> tuple[Message, ...]:
        """The clock runs again from where it stopped (the level keeps the time it had left) and the tables that
        wait deal."""
        self._check_running()
        state = self._state
        if state.paused_at is None:
            raise RunError("the tournament is not paused")
        self._set_time(now)
        paused = now - state.paused_at
        state.paused_for += paused
        state.paused_at = None
        out: list[Message] = []
        self._after_change(out)
        ends_at = self.next_clock_change()
        resumed = TournamentResumed(
            tournament_id=state.tournament_id,
            paused_seconds=int(paused.total_seconds()),
            level_ends_at=None if ends_at is None else ends_at.isoformat(),
        )
        return (resumed, *out)

    # ------------------------------------------------------------------------------------------------- facts

    def on_hand_completed(self, fact: HandCompleted, now: datetime) -> tuple[Message, ...]:
        """A table completed a hand (see the module docstring for what follows)."""
        return self.on_hands_completed((fact,), now)

    def on_hands_completed(self, facts: Iterable[HandCompleted], now: datetime) -> tuple[Message, ...]:
        """Several tables completed a hand at the same moment: each result is taken and its table planned in the
        order given (busts are not tied, unless hand-for-hand: P-2.4), then every table between hands is planned
        together and deals."""
        out: list[Message] = []
        self._check_running()
        facts = tuple(facts)
        tables = [self._checked_table(fact) for fact in facts]
        if len(set(tables)) != len(tables):
            raise RunError("two results for one table")
        self._set_time(now)
        for table_id, fact in zip(tables, facts, strict=True):
            self._take_result(table_id, fact, out)
            self._close_round(out)
            if self._left > self._over_at():
                # As if the results came one by one (the bubble is seen when it is reached, P-6.6), except that
                # the tables deal again only once all are planned together.
                self._plan(out, balance=False)
        self._after_change(out)
        return tuple(out)

    def on_clock(self, now: datetime) -> tuple[Message, ...]:
        """Time passed: announce a new level or break (P-7.1, P-7.2), offer add-ons, deal after a break."""
        out: list[Message] = []
        if self.is_over:
            return ()
        self._set_time(now)
        self._after_change(out)
        return tuple(out)

    # ----------------------------------------------------------------------------------- purchases (P-4)

    def rebuy_refusal(self, player_id: PlayerId, now: datetime) -> PurchaseRefusal | None:
        """Why `player_id` may not rebuy now, or None: ask before taking the money (P-4.2)."""
        self._set_time(now)
        return self._rebuy_refusal(player_id)

    def rebuy(self, player_id: PlayerId, now: datetime, *, form: PaymentForm = PaymentForm.CASH) -> tuple[Message, ...]:
        """The player paid a rebuy (answering an `OfferRebuy`, or between hands when the eligibility allows):
        record the entry and add the chips (P-4.2, P-4.4)."""
        out: list[Message] = []
        self._check_running()
        self._set_time(now)
        if (refusal := self._rebuy_refusal(player_id)) is not None:
            raise RunError(f"{player_id} may not rebuy now: {refusal.value}")
        rebuy = self._state.definition.rebuy
        assert rebuy is not None
        purchases = self._state.purchases[player_id]
        self._state.purchases[player_id] = PlayerPurchases(purchases.rebuys + 1, purchases.addon_moments)
        self._buy(player_id, Entry(EntryKind.REBUY, rebuy.price, form), rebuy.chips, "rebuy", out)
        table_id = self._table_id_of(player_id)
        table = self._state.tables[table_id]
        if player_id in table.offers:
            table.offers.remove(player_id)
            table.busts = [pending for pending in table.busts if pending.bust.player_id != player_id]
            self._settle_if_answered(table_id, out)
            self._offer_addon(player_id, out)  # busted when the add-on break began, in again now
        self._after_change(out)
        return tuple(out)

    def decline_rebuy(self, player_id: PlayerId, now: datetime) -> tuple[Message, ...]:
        """The player lets an `OfferRebuy` go (or the service's answer time ran out): they are out."""
        out: list[Message] = []
        self._check_running()
        self._set_time(now)
        table_id = self._table_id_of(player_id)
        table = self._state.tables[table_id]
        if player_id not in table.offers:
            raise RunError(f"{player_id} has no rebuy offer to decline")
        table.offers.remove(player_id)
        self._settle_if_answered(table_id, out)
        self._after_change(out)
        return tuple(out)

    def addon_refusal(self, player_id: PlayerId, now: datetime) -> PurchaseRefusal | None:
        """Why `player_id` may not buy an add-on now, or None (P-4.3)."""
        self._set_time(now)
        self._table_id_of(player_id)
        return self._addon_refusal(player_id)

    def addon(self, player_id: PlayerId, now: datetime, *, form: PaymentForm = PaymentForm.CASH) -> tuple[Message, ...]:
        """The player paid an add-on at an add-on break: record the entry and add the chips (P-4.3, P-4.4)."""
        out: list[Message] = []
        self._check_running()
        if (refusal := self.addon_refusal(player_id, now)) is not None:
            raise RunError(f"{player_id} may not buy an add-on now: {refusal.value}")
        addon = self._state.definition.addon
        assert addon is not None
        moment = self._reading().level_number
        purchases = self._state.purchases[player_id]
        self._state.purchases[player_id] = PlayerPurchases(purchases.rebuys, purchases.addon_moments | {moment})
        self._buy(player_id, Entry(EntryKind.ADDON, addon.price, form), addon.chips, "addon", out)
        self._after_change(out)
        return tuple(out)

    # ------------------------------------------------------------------------------------ sanctions (P-12)

    def disqualify(self, player_id: PlayerId, now: datetime) -> tuple[Message, ...]:
        """P-12.5: the player ranks below everyone not disqualified and their chips leave play — at once when
        their table is between hands, at the end of the hand otherwise."""
        out: list[Message] = []
        self._check_running()
        self._set_time(now)
        try:
            self._log.disqualify(player_id)
        except ValueError as error:
            raise RunError(str(error)) from None
        self._left = len(self._log.remaining)
        self._state.log.append(LogEntry("disqualify", player_id=player_id))
        self._state.round_busts = [p for p in self._state.round_busts if p.bust.player_id != player_id]
        table_id = self._seating.table_of(player_id)
        if table_id is not None:
            table = self._state.tables[table_id]
            if table.status is TableStatus.PLAYING:
                self._state.leaving.append(player_id)
            else:
                self._remove(player_id, "disqualified", out)
                table.busts = [pending for pending in table.busts if pending.bust.player_id != player_id]
                if player_id in table.offers:
                    table.offers.remove(player_id)
                    self._settle_if_answered(table_id, out)
                elif table.status is TableStatus.IDLE:
                    self._just_settled.append(table_id)  # one player fewer: plan the table (a shoot-out may hold it)
        self._after_change(out)
        return tuple(out)

    def penalize(self, player_id: PlayerId, places: int) -> None:
        """P-12.3: the player will rank `places` places lower (see `ranking`)."""
        self._check_running()
        try:
            self._log.penalize(player_id, places)
        except ValueError as error:
            raise RunError(str(error)) from None
        self._state.log.append(LogEntry("penalize", player_id=player_id, places=places))

    # ---------------------------------------------------------------------------------- cancellation (P-10)

    def cancel(self, now: datetime, reason: str) -> Cancellation:
        """Cancel for technical reasons (P-10): hands in progress are void, the state after each table's last
        completed hand counts. Open rebuy offers count as declined; a hand-for-hand round's completed hands are
        recorded together."""
        out: list[Message] = []
        self._check_running()
        self._set_time(now)
        state = self._state
        for table_id, table in sorted(state.tables.items()):
            if table.status is TableStatus.SETTLING:
                table.offers.clear()
                self._settle_if_answered(table_id, out)
        self._record(state.round_busts, out)
        state.round_busts = []
        still_in = {
            player: state.chips[player] + state.bought_in_hand.get(player, 0) for player in sorted(self._log.remaining)
        }
        case = cancellation_case(state, self._log, self._reading(), still_in)
        settlement = settle_cancellation(case)
        state.cancelled = True
        out.extend(
            CloseTable(table_id=self._tables.key(table_id), reason="cancelled") for table_id in sorted(state.tables)
        )
        given_back = refunds(settlement, tuple(state.entries))
        out.append(TournamentCancelled(tournament_id=state.tournament_id, reason=reason, refunds=given_back))
        return Cancellation(case, settlement, tuple(out))

    def cancellation_preview(self, now: datetime) -> Cancellation:
        """What `cancel` at `now` would settle (P-10), this run unchanged: the same calculation on a copy, so the
        console's preview and the cancellation cannot disagree on the same state."""
        copy = TournamentRun.restore(self.to_json(), random.Random(0))  # cancelling deals nothing: no randomness
        return copy.cancel(max(now, self._state.now), "preview")

    # ------------------------------------------------------------------------------------- internals: facts

    def _checked_table(self, fact: HandCompleted) -> int:
        """The table number of a fact the run can take, which it checks before changing anything."""
        try:
            table_id = self._tables.number(fact.table_id)
        except UnknownTable as error:
            raise RunError(str(error)) from None
        table = self._state.tables[table_id]
        if table.status is not TableStatus.PLAYING or fact.hand_no != table.hand_no:
            raise RunError(f"{fact.table_id} has no hand {fact.hand_no} in progress")
        if sum(result.start_stack for result in fact.results) != sum(result.end_stack for result in fact.results):
            raise RunError(f"hand {fact.hand_id}: the stacks do not add up")
        for result in fact.results:
            if table.seats.get(result.seat) != result.player_id:
                raise RunError(f"hand {fact.hand_id}: {result.player_id} is not at seat {result.seat}")
            if result.start_stack != self._state.chips[result.player_id]:
                raise RunError(f"hand {fact.hand_id}: {result.player_id} did not start it with {result.start_stack}")
        return table_id

    def _take_result(self, table_id: int, fact: HandCompleted, out: list[Message]) -> None:
        """Stacks from a completed hand; busted players wait for their rebuy answers or are settled at once."""
        state = self._state
        table = state.tables[table_id]
        for result in fact.results:
            state.chips[result.player_id] = result.end_stack
        for player in table.seats.values():
            state.chips[player] += state.bought_in_hand.pop(player, 0)
        table.button_seat = fact.button_seat
        table.status = TableStatus.SETTLING
        state.hands_completed += 1
        out.extend(showdown_jackpot_qualifiers(state, fact))
        for player in [player for player in state.leaving if player in table.seats.values()]:
            state.leaving.remove(player)
            self._remove(player, "disqualified", out)
        seats_per_table = state.definition.tables.seats_per_table
        clock = self._reading()
        for result in fact.results:
            player = result.player_id
            if state.chips.get(player) != 0:
                continue  # still has chips, or left play above
            distance = seats_from_button(fact.button_seat, result.seat, seats_per_table)
            table.busts.append(PendingBust(Bust(player, result.start_stack, distance, table_id), fact.hand_id))
            refusal = rebuy_refusal(
                state.definition, state.purchases[player], chips=0, last_hand_level=table.hand_level, clock=clock
            )
            if refusal is None:
                table.offers.append(player)
                out.append(self._rebuy_offer(table_id, player))
        self._settle_if_answered(table_id, out)

    def _settle_if_answered(self, table_id: int, out: list[Message]) -> None:
        """Once no rebuy answer is awaited, the hand's busted players leave and their busts are recorded — or
        kept for the end of the hand-for-hand round (P-2.4)."""
        state = self._state
        table = state.tables[table_id]
        if table.status is not TableStatus.SETTLING or table.offers:
            return
        for pending in table.busts:
            self._remove(pending.bust.player_id, "busted", out)
        if table.hand_for_hand_round is not None and table.hand_for_hand_round == state.hand_for_hand_round:
            state.round_busts.extend(table.busts)
        else:
            self._record(table.busts, out)
        table.busts = []
        table.status = TableStatus.IDLE
        self._just_settled.append(table_id)

    def _record(self, pending: Sequence[PendingBust], out: list[Message]) -> None:
        """P-2.1–P-2.4: busts that happened together get their positions; announce them."""
        if not pending:
            return
        busts = tuple(item.bust for item in pending)
        groups = self._log.record_busts(busts)
        self._left -= len(busts)
        self._state.log.append(LogEntry("busts", busts=busts))
        hand_of = {item.bust.player_id: item.hand_id for item in pending}
        prizes = self._current_prizes()
        for group in groups:
            cash, seat = prizes.group_shares(group)
            for player, prize in zip(group.players, cash, strict=True):
                eliminated = PlayerEliminated(
                    tournament_id=self._state.tournament_id,
                    player_id=player,
                    position=group.first_position,
                    prize_cents=prize,
                    hand_id=hand_of[player],
                    seat=seat,
                )
                out.append(eliminated)

    def _current_prizes(self) -> PrizeTable:
        if self._prizes is None:
            self._prizes = prize_table(self._state)
        return self._prizes

    def _over_at(self) -> int:
        """How many players left end the tournament: one, or in a satellite its seats (each of them wins one,
        P-3.4: playing on could not change what they win)."""
        return max(1, self._current_prizes().seats)

    def _remove(self, player_id: PlayerId, reason: Literal["busted", "disqualified"], out: list[Message]) -> None:
        """Unseat a player leaving play; a disqualified player's chips leave with them (P-12.5)."""
        table_id, _ = self._seating.unseat(player_id)
        chips = self._state.chips.pop(player_id) + self._state.bought_in_hand.pop(player_id, 0)
        if reason == "disqualified":
            self._state.chips_removed += chips
        out.append(UnseatPlayer(table_id=self._tables.key(table_id), player_id=player_id, reason=reason))

    # -------------------------------------------------------------------------------- internals: after change

    def _after_change(self, out: list[Message]) -> None:
        """Announce the clock, record a finished hand-for-hand round, finish or plan the tables, and deal."""
        self._announce_clock(out)
        self._close_round(out)
        if self._left <= self._over_at():
            self._finish(out)
            return
        self._plan(out, balance=True)
        if self._state.paused_at is None:  # paused: the tables wait, planned, for the resumption
            self._tables.start_hands(self._reading(), out)

    def _plan(self, out: list[Message], *, balance: bool) -> None:
        """Plan the tables that finished a hand, and with `balance` every table between hands (`run_tables`).
        During a hand-for-hand round nothing moves until its last hand is settled: the tables wait (P-6.6)."""
        if self._state.hand_for_hand and self._tables.round_in_progress():
            return
        self._tables.plan_finished(self._just_settled, out)
        self._just_settled = []
        if balance:
            self._tables.balance_all(out)

    def _close_round(self, out: list[Message]) -> None:
        """P-2.4: once every hand of a hand-for-hand round is settled, its busts are recorded together."""
        state = self._state
        if state.round_busts and not self._tables.round_in_progress():
            self._record(state.round_busts, out)
            state.round_busts = []

    def _finish(self, out: list[Message]) -> None:
        state = self._state
        state.finished_at = state.now
        self._outcome = finish(state, self._log, state.now)
        out.extend(
            CloseTable(table_id=self._tables.key(table_id), reason="finished") for table_id in sorted(state.tables)
        )
        out.append(self._outcome.event)

    # ------------------------------------------------------------------------------------ internals: helpers

    def _set_time(self, now: datetime) -> None:
        if now < self._state.now:
            raise RunError(f"time went back: {now} is before {self._state.now}")
        self._state.now = now

    def _announce_clock(self, out: list[Message]) -> None:
        """Announce a level or break change (P-7.1, P-7.2) and, at an add-on break, offer the add-on (P-4.3)."""
        state = self._state
        reading = self._reading()
        mark = (reading.level_number, reading.on_break is not None)
        if mark == state.clock_mark:
            return
        state.clock_mark = mark
        level = reading.level
        ends_at = None if reading.remaining is None else state.now + reading.remaining
        changed = LevelChanged(
            tournament_id=state.tournament_id,
            level_no=mark[0],
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            ends_at=None if ends_at is None else ends_at.isoformat(),
            on_break=mark[1],
        )
        out.append(changed)
        for player in sorted(state.chips):
            self._offer_addon(player, out)

    def _offer_addon(self, player_id: PlayerId, out: list[Message]) -> None:
        addon = self._state.definition.addon
        if addon is not None and self._addon_refusal(player_id) is None:
            offered = AddonOffered(
                tournament_id=self._state.tournament_id,
                player_id=player_id,
                chips=addon.chips,
                price_cents=addon.price.total_cents,
            )
            out.append(offered)

    def _reading(self) -> ClockReading:
        """The clock at the run's time less the pauses, standing still while paused (computed once per instant:
        every fact of a call needs it)."""
        state = self._state
        at = (state.paused_at or state.now) - state.paused_for
        if self._clock_cache is None or self._clock_cache[0] != at:
            self._clock_cache = (at, self._clock.reading_at(at))
        return self._clock_cache[1]

    def _rebuy_refusal(self, player_id: PlayerId) -> PurchaseRefusal | None:
        table = self._state.tables[self._table_id_of(player_id)]
        return rebuy_refusal(
            self._state.definition,
            self._state.purchases[player_id],
            chips=self._state.chips[player_id] + self._state.bought_in_hand.get(player_id, 0),
            last_hand_level=table.hand_level,
            clock=self._reading(),
        )

    def _addon_refusal(self, player_id: PlayerId) -> PurchaseRefusal | None:
        state = self._state
        chips = state.chips[player_id] + state.bought_in_hand.get(player_id, 0)
        return addon_refusal(state.definition, state.purchases[player_id], chips=chips, clock=self._reading())

    def _rebuy_offer(self, table_id: int, player_id: PlayerId) -> OfferRebuy:
        rebuy = self._state.definition.rebuy
        assert rebuy is not None
        return OfferRebuy(
            self._state.tournament_id, self._tables.key(table_id), player_id, rebuy.chips, rebuy.price.total_cents
        )

    def _buy(
        self, player_id: PlayerId, entry: Entry, chips: int, reason: Literal["rebuy", "addon"], out: list[Message]
    ) -> None:
        """Record a paid entry (P-4.4) and credit its chips — after the hand when the player is in one."""
        state = self._state
        state.entries[player_id].append(entry)
        self._prizes = None
        table_id = self._table_id_of(player_id)
        if state.tables[table_id].status is TableStatus.PLAYING:
            state.bought_in_hand[player_id] = state.bought_in_hand.get(player_id, 0) + chips
        else:
            state.chips[player_id] += chips
        out.append(AddChips(table_id=self._tables.key(table_id), player_id=player_id, amount=chips, reason=reason))

    def _table_id_of(self, player_id: PlayerId) -> int:
        table_id = self._seating.table_of(player_id)
        if table_id is None:
            raise RunError(f"{player_id} is not seated in this tournament")
        return table_id

    def _check_running(self) -> None:
        if self.is_over:
            raise RunError("the tournament is over")
