"""A shard of the table engine: hosts many tables, applies their commands in order and exactly once, runs their
action clocks, and voids the hands a crash interrupted.

- Commands come from the shard's own queue `table-engine.shard-<index>` (routing keys
  `table-engine.shard-<index>.<command type>`, see `platform_kit.events.table.command_routing_key`). The shard
  subscribes to it itself, after recovery, so that no command reaches a table whose interrupted hand is not
  voided yet.
- Each command, and each clock expiry, is one transaction: the table's new state, the hand record and the
  events (outbox) commit together, and the command's message id is recorded in the same transaction (inbox).
  One lock serialises commands and the clock, and is always taken before the transaction opens.
- The `Hand` object of each table in play stays in memory; the database has what rebuilds it (configuration,
  deck, actions). After a failed transaction the cached hand is dropped and rebuilt from the database.
- So does each table as this shard last saved it (only its shard writes a table): a command loads it from the
  database only the first time, or after a refusal or a failed transaction, which drop it (issue 14: its two
  selects were a fifth of an action's statements). A command takes the table out of the cache and puts it back
  only once it is saved, so a step that raises never leaves a half-changed table behind.
- On start-up, every hand of this shard still in progress was interrupted: it is void (P-10), its stacks go
  back to their start-of-hand values and `table.hand.voided` tells the director to send the next StartHand.
- Pace (domain/machine.py): a StartHand that comes within `hand_pause_seconds` of the table's last hand is kept with
  the table; the clock deals it when due. Kept hands are saved, so they survive a restart (the shard reads them
  back at start-up), and dealing clears them in the same transaction: one is never dealt twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from platform_kit.bus import Envelope
from platform_kit.clock import Clock
from platform_kit.events import Command
from platform_kit.events import rating as rating_events
from platform_kit.events import table as contract
from platform_kit.events.table import shard_for, shard_queue
from platform_kit.instants import as_utc
from platform_kit.runtime import ServiceRuntime
from sqlalchemy.ext.asyncio import AsyncSession

from table_engine.adapters import store
from table_engine.domain.fair_deal import SEED_BYTES, DeckSource, derive_deck
from table_engine.domain.live import LiveHand
from table_engine.domain.machine import Refusal, TableMachine, new_table, next_deck_commitment
from table_engine.domain.model import Seat, Table
from table_engine.domain.records import replay
from table_engine.domain.translate import chips_paid
from table_engine.service.metrics import TableMetrics
from table_engine.settings import Settings

log = logging.getLogger(__name__)

# Sanctions that silence a player at the table (P-12.3, P-12.4): chat bans, and bans from the room or network.
CHAT_BLOCKING = frozenset({"temporary_chat_ban", "permanent_chat_ban", "temporary_ban", "permanent_ban"})
# Commands a player (through the gateway) sends: refusals go to that player alone (P-1.4).
PLAYER_COMMANDS = (
    contract.PlayerAct,
    contract.PostChat,
    contract.SetSittingOut,
    contract.PlayerConnection,
    contract.ContributeToDeck,
)

Step = Callable[[TableMachine], object]


class Shuffler(Protocol):
    """Draws each hand's secret seed and the first buttons: `random.SystemRandom()` in production (P-1.3)."""

    def randbytes(self, n: int, /) -> bytes: ...

    def choice(self, seq: Sequence[int], /) -> int: ...


DeckDerivation = Callable[[bytes, Sequence[str]], Sequence[int]]
"""Seed and contributions -> deck: `fair_deal.derive_deck`; tests substitute stacked decks."""


class SecureDealer:
    """The machine's `Dealer`: fresh seeds from the secure generator (P-1.3), so that no hand, not even one dealt
    again after a void, reuses one; each deck derived from its source (and recorded)."""

    def __init__(self, rng: Shuffler, derive: DeckDerivation) -> None:
        self._rng = rng
        self._derive = derive

    def new_seed(self) -> bytes:
        return self._rng.randbytes(SEED_BYTES)

    def deal(self, source: DeckSource) -> tuple[str, Sequence[int]]:
        return uuid.uuid4().hex, self._derive(source.seed, source.contributions)


class TableHost:
    def __init__(
        self,
        runtime: ServiceRuntime,
        settings: Settings,
        clock: Clock,
        rng: Shuffler,
        derive: DeckDerivation = derive_deck,
    ) -> None:
        self.runtime = runtime
        self.metrics = TableMetrics(runtime.registry)
        self.clock = clock
        self.rng = rng
        self.dealer = SecureDealer(rng, derive)
        self.shard = settings.shard_index
        self.shards = settings.table_engine_shards
        self.queue = shard_queue(self.shard)
        self.interval = settings.timer_interval_seconds
        self.pause = timedelta(seconds=settings.hand_pause_seconds)
        self.ready = asyncio.Event()
        """Set once interrupted hands are void and the shard consumes its commands."""
        self._lock = asyncio.Lock()
        self._hands: dict[str, LiveHand] = {}
        self._tables: dict[str, Table] = {}
        """Table id -> the table as saved by the last committed or pending transaction (dropped by `_forget`)."""
        self._stale: set[str] = set()
        self._waiting: dict[str, datetime] = {}
        """Table id -> when the StartHand it keeps is dealt (as saved)."""
        self._nobody_acting: set[str] = set()
        """Open tables where every seated player sits out (as saved)."""
        self.metrics.nobody_acting.set_function(lambda: len(self._nobody_acting))
        self._consuming = False

    # --------------------------------------------------------------------------------------------- life cycle

    async def serve(self) -> None:
        """The shard's life, in the background (bootstrap.py): recover, then consume its commands and run the
        clock."""
        if not self._consuming:
            await self.recover()
            # Not `runtime.on`: that would open the transaction before our lock (the clock takes the lock first)
            # and consume before the recovery above.
            inbox = self.runtime.inbox
            await self.runtime.bus.subscribe(
                self.queue,
                [f"{self.queue}.#"],
                self._locked(inbox.exactly_once(self.queue, self._apply)),
                batch=self._locked_batch(inbox.exactly_once_batch(self.queue, self._apply)),
            )
            self._consuming = True
            self.ready.set()
            log.info("table-engine shard consuming", extra={"shard": self.shard, "queue": self.queue})
        while True:
            await self.tick()
            await asyncio.sleep(self.interval)

    async def recover(self) -> None:
        """Void every hand of this shard that a crash interrupted (P-10); read back the hands kept for their
        pause and the tables where nobody acts."""
        async with self._lock:
            async with self.runtime.units.unit() as uow:
                interrupted = await store.tables_with_hand_in_progress(uow.session, self.shard)
                self._waiting = await store.hands_waiting(uow.session, self.shard)
                self._nobody_acting = set(await store.tables_nobody_acting(uow.session, self.shard))
            for table_id in interrupted:
                async with self.runtime.units.unit() as uow:
                    await self._void_interrupted(uow.session, table_id)
        if interrupted:
            log.warning("voided hands interrupted by a restart", extra={"tables": interrupted})

    async def tick(self) -> None:
        """Apply the default action wherever a player's time ran out, deal the kept hands whose pause is over,
        and resume tables dropped after a failure."""
        now = self.clock.now()
        due = {table_id for table_id, live in self._hands.items() if live.turn and live.turn.expires_at <= now}
        due |= {table_id for table_id, due_at in self._waiting.items() if due_at <= now}
        for table_id in sorted(due | self._stale):
            async with self._lock:
                self._stale.discard(table_id)
                try:
                    async with self.runtime.units.unit() as uow:
                        await self._run(uow.session, table_id, None, lambda m: m.clock(self.dealer))
                except Exception:
                    log.exception("table clock failed", extra={"table_id": table_id})
                    self._forget(table_id)

    # --------------------------------------------------------------------------------------------- commands

    def _locked(self, handler: Callable[[Envelope], Awaitable[None]]) -> Callable[[Envelope], Awaitable[None]]:
        async def handle(envelope: Envelope) -> None:
            async with self._lock:
                started = time.perf_counter()
                try:
                    await handler(envelope)
                    self.metrics.command_seconds.labels(envelope.type).observe(time.perf_counter() - started)
                except Exception:
                    self._forget(str(envelope.payload.get("table_id", "")))
                    raise

        return handle

    def _locked_batch(
        self, handler: Callable[[Sequence[Envelope]], Awaitable[None]]
    ) -> Callable[[Sequence[Envelope]], Awaitable[None]]:
        """Commands waiting together are applied in one transaction; if it fails, none of them was saved, so
        every table they touched is rebuilt from the database (and the bus hands them over one by one)."""

        async def handle(envelopes: Sequence[Envelope]) -> None:
            async with self._lock:
                started = time.perf_counter()
                try:
                    await handler(envelopes)
                except Exception:
                    for envelope in envelopes:
                        self._forget(str(envelope.payload.get("table_id", "")))
                    raise
                elapsed = (time.perf_counter() - started) / len(envelopes)
                for envelope in envelopes:
                    self.metrics.command_seconds.labels(envelope.type).observe(elapsed)

        return handle

    async def _apply(self, session: AsyncSession, envelope: Envelope) -> None:
        command = envelope.event()
        match command:
            case contract.OpenTable():
                await self._open(session, command)
            case contract.SeatPlayer():
                await self._run(session, command.table_id, command, lambda m: m.seat_player(command.player))
            case contract.UnseatPlayer():
                await self._run(
                    session, command.table_id, command, lambda m: m.unseat_player(command.player_id, command.reason)
                )
            case contract.AddChips():
                await self._run(
                    session, command.table_id, command, lambda m: m.add_chips(command.player_id, command.amount)
                )
            case contract.StartHand():
                await self._run(
                    session, command.table_id, command, lambda m: m.start_hand(command, self.dealer, self.pause)
                )
            case contract.PauseTable():
                await self._run(session, command.table_id, command, TableMachine.pause)
            case contract.CloseTable():
                await self._run(session, command.table_id, command, lambda m: m.close(command.reason))
            case contract.PlayerAct():
                await self._run(session, command.table_id, command, lambda m: m.act(command))
            case contract.SetSittingOut():
                await self._run(
                    session,
                    command.table_id,
                    command,
                    lambda m: m.set_sitting_out(command.player_id, command.sitting_out),
                )
            case contract.PostChat():
                banned = await store.chat_banned(session, command.player_id, self.clock.now())
                await self._run(
                    session, command.table_id, command, lambda m: m.chat(command.player_id, command.text, banned=banned)
                )
            case contract.ContributeToDeck():
                await self._run(
                    session, command.table_id, command, lambda m: m.contribute(command.player_id, command.value)
                )
            case contract.PlayerConnection():
                await self._connection(session, command)
            case _:
                log.warning("not a table command; ignored", extra={"type": envelope.type})

    async def _open(self, session: AsyncSession, command: contract.OpenTable) -> None:
        now = self.clock.now()
        try:
            if shard_for(command.table_id, self.shards) != self.shard:
                raise Refusal("wrong_shard", f"table {command.table_id} belongs to another shard")
            if await store.table_exists(session, command.table_id):
                raise Refusal("table_exists", f"table {command.table_id} is already open")
            table = new_table(
                command, shard=self.shard, now=now, draw_button=self.rng.choice, draw_seed=self.dealer.new_seed
            )
        except Refusal as refusal:
            await self._refuse(session, command.table_id, command, refusal)
            return
        await store.insert_table(session, table, now)
        opened = contract.TableOpened(
            table_id=table.table_id,
            tournament_id=table.tournament_id,
            shard=self.shard,
            max_seats=table.max_seats,
            seats=command.seats,
            next_deck_commitment=next_deck_commitment(table),
        )
        await self.runtime.outbox.add(session, opened)

    async def _connection(self, session: AsyncSession, command: contract.PlayerConnection) -> None:
        table = self._tables.get(command.table_id) or await store.load_table(session, command.table_id)
        scope = table.protection_scope if table else ""
        used = await store.protections_used(session, scope, command.player_id)
        await self._run(
            session, command.table_id, command, lambda m: m.connection(command.player_id, command.connected, used)
        )

    async def _run(self, session: AsyncSession, table_id: str, command: Command | None, step: Step) -> None:
        """Load the table, apply `step`, save the table, its hand and the events. `command` None: the clock."""
        now = self.clock.now()
        table = self._tables.pop(table_id, None) or await store.load_table(session, table_id)
        if table is None or table.shard != self.shard:
            if command is not None:
                await self._refuse(session, table_id, command, Refusal("unknown_table", f"no table {table_id} here"))
            return
        live, resumed = await self._live(session, table)
        machine = TableMachine(table, live, now)
        before = store.seats_as_loaded(table)
        try:
            if resumed:
                machine.ensure_turn()
            step(machine)
        except Refusal as refusal:
            assert command is not None, "the clock is never refused"
            await self._refuse(session, table_id, command, refusal)
            if resumed:
                self._forget(table_id)  # the resumed turn was not saved
            return
        await self._save(session, machine, before, now)

    async def _save(self, session: AsyncSession, machine: TableMachine, before: dict[int, Seat], now: datetime) -> None:
        table = machine.table
        machine.sync_stacks()
        await store.save_table(session, table, machine.public_state(), now, before=before)
        played = machine.played
        if played is not None:
            if machine.started is not None:
                assert played.source is not None, "every hand dealt has its deck's source"
                await store.insert_hand(
                    session,
                    hand_id=played.hand_id,
                    table=table,
                    level=played.level,
                    config=played.hand.config,
                    deck=machine.started,
                    source=played.source,
                    now=now,
                )
            await store.update_hand_play(
                session, played.hand_id, config=played.hand.config, set_aside=played.set_aside, actions=played.actions
            )
        if machine.ended is not None:
            ended = machine.ended
            self.metrics.hands_ended.labels(ended.status).inc()
            await store.end_hand(session, ended.hand_id, status=ended.status, end_stacks=ended.end_stacks, now=now)
        for player_id in machine.effects.protections_used:
            await store.count_protection(session, table.protection_scope, player_id)
        self._index(table)
        # One statement for all of a step's events (an action's is usually two or three: taken, the next turn,
        # a street dealt), each under the key its contract declares: py-spy found a statement each at about
        # a tenth of the engine's time in play (issue 14).
        await self.runtime.outbox.add_many(session, machine.effects.messages)
        if machine.live is None:
            self._hands.pop(table.table_id, None)
        else:
            self._hands[table.table_id] = machine.live
        if table.status != "closed":
            self._tables[table.table_id] = table

    def _index(self, table: Table) -> None:
        """Keep the clock's list of kept hands and the gauge of tables nobody plays at in step with the table."""
        if table.next_hand is None:
            self._waiting.pop(table.table_id, None)
        else:
            self._waiting[table.table_id] = table.next_hand.due_at
        if not table.nobody_acting:
            self._nobody_acting.discard(table.table_id)
        elif table.table_id not in self._nobody_acting:
            self._nobody_acting.add(table.table_id)
            log.info("nobody acts at the table any more: it deals on at its pace", extra={"table_id": table.table_id})

    async def _refuse(self, session: AsyncSession, table_id: str, command: Command, refusal: Refusal) -> None:
        if isinstance(command, PLAYER_COMMANDS):
            rejected = contract.ActionRejected(
                table_id=table_id,
                hand_id=command.hand_id if isinstance(command, contract.PlayerAct) else None,
                player_id=command.player_id,
                code=refusal.code,
                message=refusal.message,
            )
            await self.runtime.outbox.add(session, rejected)
            return
        log.warning("command refused", extra={"table_id": table_id, "command": command.TYPE, "code": refusal.code})
        await self.runtime.outbox.add(
            session,
            contract.CommandRejected(
                table_id=table_id, command=command.TYPE, code=refusal.code, message=refusal.message
            ),
        )

    # ----------------------------------------------------------------------------------------------- hands

    async def _live(self, session: AsyncSession, table: Table) -> tuple[LiveHand | None, bool]:
        """The table's hand in progress, and whether it had to be rebuilt from its record."""
        if table.current_hand_id is None:
            return None, False
        cached = self._hands.get(table.table_id)
        if cached is not None and cached.hand_id == table.current_hand_id:
            return cached, False
        record = await store.load_hand(session, table.current_hand_id)
        assert record is not None, f"table {table.table_id} plays hand {table.current_hand_id}, which is not stored"
        hand = replay(record.config, record.deck, record.actions)
        paid = chips_paid(hand.events)
        live = LiveHand(
            record.hand_id,
            record.hand_no,
            record.level,
            hand,
            list(record.actions),
            record.start_stacks,
            source=record.source,
            set_aside=record.set_aside,
            published=len(hand.events),
            stacks={seat: s.stack - paid.get(seat, 0) for seat, s in hand.config.seats.items()},
            pot=sum(paid.values()),
        )
        return live, True

    async def _void_interrupted(self, session: AsyncSession, table_id: str) -> None:
        table = await store.load_table(session, table_id)
        if table is None or table.current_hand_id is None:
            return
        record = await store.load_hand(session, table.current_hand_id)
        assert record is not None, f"table {table_id} plays hand {table.current_hand_id}, which is not stored"
        now = self.clock.now()
        machine = TableMachine(table, None, now)
        before = store.seats_as_loaded(table)
        machine.void(record.hand_id, record.hand_no, record.config, record.start_stacks, record.source)
        await self._save(session, machine, before, now)

    def _forget(self, table_id: str) -> None:
        """Drop the cached hand of a table whose transaction failed: the next tick rebuilds it from the database
        (and asks the player to act again)."""
        self._hands.pop(table_id, None)
        self._tables.pop(table_id, None)
        if table_id:
            self._stale.add(table_id)

    # ------------------------------------------------------------------------------------------- sanctions

    async def sanction_decided(self, session: AsyncSession, envelope: Envelope) -> None:
        sanction = envelope.event()
        assert isinstance(sanction, rating_events.SanctionDecided)
        if sanction.kind in CHAT_BLOCKING:
            await store.record_chat_ban(
                session,
                sanction.sanction_id,
                sanction.player_id,
                sanction.kind,
                _instant(sanction.starts_at),
                _instant(sanction.ends_at) if sanction.ends_at else None,
            )

    async def sanction_lifted(self, session: AsyncSession, envelope: Envelope) -> None:
        lifted = envelope.event()
        assert isinstance(lifted, rating_events.SanctionLifted)
        await store.lift_chat_ban(session, lifted.sanction_id)


def _instant(text: str) -> datetime:
    """An ISO-8601 instant in UTC (a time without offset is taken as UTC), as the database compares them."""
    return as_utc(datetime.fromisoformat(text))
