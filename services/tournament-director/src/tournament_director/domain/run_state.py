"""The state of a running tournament, as plain data, and its JSON form (what the service persists).

`RunState` holds every fact a `TournamentRun` needs to go on after a restart: the definition, the tables (seats,
buttons, what each is doing), chips, entries and purchases, and the elimination log as the list of calls made on
it (`LogEntry`), which is replayed to rebuild the log. Nothing random is stored: the generator is injected again
on restore. `state_to_json` / `state_from_json` round-trip it through JSON-able dicts (str keys, lists, ISO times);
`SnapshotWriter` writes the same as JSON text, again and again, encoding only what changed since its last text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.entries import Entry, EntryKind, PaymentForm, Price
from tournament_director.domain.jackpots import JackpotProgramme
from tournament_director.domain.ranking import Bust, PlayerId
from tournament_director.domain.rebuy_addon import PlayerPurchases

FORMAT_VERSION = 1


class TableStatus(StrEnum):
    #: Between hands; deals when the clock, hand-for-hand and its player count allow.
    IDLE = "idle"
    #: A hand was started and has not completed yet.
    PLAYING = "playing"
    #: The hand completed; waiting for busted players' rebuy answers (P-4.2) before anyone leaves.
    SETTLING = "settling"
    #: Shoot-out: down to its winners, waiting for the next phase (P-6.4).
    HELD = "held"


@dataclass(frozen=True)
class PendingBust:
    """A bust seen in a hand and not yet recorded in the elimination log."""

    bust: Bust
    hand_id: str


@dataclass
class TablePlay:
    """One table of the tournament: its seating and what it is doing."""

    seats: dict[int, PlayerId]
    button_seat: int | None = None
    status: TableStatus = TableStatus.IDLE
    #: The latest hand started here (hands are numbered from 1 per table).
    hand_no: int = 0
    #: The blind level number the latest hand started with (P-7.1; for rebuy eligibility, P-4.2).
    hand_level: int = 0
    #: The hand-for-hand round (P-6.6) the latest hand belongs to, if any.
    hand_for_hand_round: int | None = None
    #: Busted players of the latest hand still to answer a rebuy offer.
    offers: list[PlayerId] = field(default_factory=list)
    #: Busts of the latest hand not recorded yet (waiting for rebuy answers).
    busts: list[PendingBust] = field(default_factory=list)


@dataclass(frozen=True)
class LogEntry:
    """One call made on the elimination log, in order: `busts`, or `disqualify` / `penalize` of `player_id`."""

    operation: str
    busts: tuple[Bust, ...] = ()
    player_id: PlayerId = ""
    places: int = 0


@dataclass
class RunState:
    tournament_id: str
    #: The tournament's currency: its prizes are announced in it (`tournament.tournament.finished`).
    currency: str
    definition: TournamentDefinition
    jackpots: tuple[JackpotProgramme, ...]
    started_at: datetime
    #: The latest time the run was told about; time never goes back.
    now: datetime
    #: The level number and whether on a break, as last announced (LevelChanged).
    clock_mark: tuple[int, bool]
    tables: dict[int, TablePlay]
    #: The shoot-out phase (1 in standard mode).
    phase: int = 1
    #: Shoot-out: the players who won their table of the first phase (P-2.5), once the second phase starts.
    table_winners: list[PlayerId] = field(default_factory=list)
    hand_for_hand: bool = False
    #: The latest hand-for-hand round started; 0 before any.
    hand_for_hand_round: int = 0
    #: Busts of the hands of the current hand-for-hand round, recorded together at its end (P-2.4).
    round_busts: list[PendingBust] = field(default_factory=list)
    #: Chips of every seated player after their latest completed hand, plus chips bought since.
    chips: dict[PlayerId, int] = field(default_factory=dict)
    #: Chips bought while the player's hand was in progress: credited again when that hand completes.
    bought_in_hand: dict[PlayerId, int] = field(default_factory=dict)
    entries: dict[PlayerId, list[Entry]] = field(default_factory=dict)
    purchases: dict[PlayerId, PlayerPurchases] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    #: Players disqualified during a hand: they leave, with their chips, when it completes (P-12.5).
    leaving: list[PlayerId] = field(default_factory=list)
    #: Chips that left play with disqualified players (P-12.5).
    chips_removed: int = 0
    hands_completed: int = 0
    finished_at: datetime | None = None
    cancelled: bool = False
    #: Paused by the director for a technical problem since then (the clock stands still, no hand is dealt).
    paused_at: datetime | None = None
    #: The length of the pauses already over: the blind clock runs that much behind the wall clock.
    paused_for: timedelta = timedelta(0)


# ---- JSON ----------------------------------------------------------------------------------------------------


def _bust_to_json(bust: Bust) -> list[Any]:
    return [bust.player_id, bust.chips_at_hand_start, bust.seats_from_button, bust.table_id]


def _bust_from_json(data: list[Any]) -> Bust:
    return Bust(data[0], data[1], data[2], data[3])


def _pending_to_json(pending: PendingBust) -> list[Any]:
    return [*_bust_to_json(pending.bust), pending.hand_id]


def _pending_from_json(data: list[Any]) -> PendingBust:
    return PendingBust(_bust_from_json(data[:4]), data[4])


def _entry_to_json(entry: Entry) -> list[Any]:
    return [entry.kind.value, entry.price.prize_part_cents, entry.price.fee_cents, entry.form.value]


def _entry_from_json(data: list[Any]) -> Entry:
    return Entry(EntryKind(data[0]), Price(prize_part_cents=data[1], fee_cents=data[2]), PaymentForm(data[3]))


def _table_to_json(table: TablePlay) -> dict[str, Any]:
    return {
        "seats": sorted([seat, player] for seat, player in table.seats.items()),
        "button_seat": table.button_seat,
        "status": table.status.value,
        "hand_no": table.hand_no,
        "hand_level": table.hand_level,
        "hand_for_hand_round": table.hand_for_hand_round,
        "offers": list(table.offers),
        "busts": [_pending_to_json(pending) for pending in table.busts],
    }


def _table_from_json(data: dict[str, Any]) -> TablePlay:
    return TablePlay(
        seats={seat: player for seat, player in data["seats"]},
        button_seat=data["button_seat"],
        status=TableStatus(data["status"]),
        hand_no=data["hand_no"],
        hand_level=data["hand_level"],
        hand_for_hand_round=data["hand_for_hand_round"],
        offers=list(data["offers"]),
        busts=[_pending_from_json(item) for item in data["busts"]],
    )


def _log_to_json(entry: LogEntry) -> list[Any]:
    if entry.operation == "busts":
        return ["busts", [_bust_to_json(bust) for bust in entry.busts]]
    return [entry.operation, entry.player_id, entry.places]


def _log_from_json(data: list[Any]) -> LogEntry:
    if data[0] == "busts":
        return LogEntry("busts", busts=tuple(_bust_from_json(item) for item in data[1]))
    return LogEntry(data[0], player_id=data[1], places=data[2])


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def state_to_json(state: RunState) -> dict[str, Any]:
    """A JSON-able dict (str keys, lists, numbers, ISO-8601 times) holding all of `state`."""
    return {
        **_rest_to_json(state),
        "tables": [[table_id, _table_to_json(table)] for table_id, table in sorted(state.tables.items())],
        "log": [_log_to_json(entry) for entry in state.log],
        **_entrants_to_json(state),
    }


class SnapshotWriter:
    """`state_to_json` as JSON text, for a state saved after every change (a run's snapshot, after every hand):
    each call encodes again only the parts that differ from the state it wrote last. A 3,000-player run's
    snapshot is ~0.4 MB, of which a hand changes one table's part and a few stacks.

    Parts are kept by their value, never on trust that the state tells what changed: a table's text while its
    fields are equal (`_table_key`), the log's entries (frozen) while the log begins with them, the entrants'
    records (`entries`, `purchases`: one per entrant, changed by rebuys and add-ons) while they are equal. The rest
    (stacks, clock, flags) is encoded every time."""

    def __init__(self) -> None:
        self._tables: dict[int, tuple[tuple[Any, ...], str]] = {}
        self._log: list[LogEntry] = []
        self._log_texts: list[str] = []
        self._entrants: tuple[tuple[Any, ...], str] | None = None

    def text(self, state: RunState) -> str:
        rest = _dumps(_rest_to_json(state))[:-1]
        tables, log, entrants = self._tables_text(state), self._log_text(state), self._entrants_text(state)
        return f'{rest},"tables":[{tables}],"log":[{log}],{entrants}}}'

    def _tables_text(self, state: RunState) -> str:
        kept, self._tables = self._tables, {}
        for table_id, table in sorted(state.tables.items()):
            key = _table_key(table)
            cached = kept.get(table_id)
            text = cached[1] if cached is not None and cached[0] == key else _dumps([table_id, _table_to_json(table)])
            self._tables[table_id] = (key, text)
        return ",".join(text for _, text in self._tables.values())

    def _log_text(self, state: RunState) -> str:
        if state.log[: len(self._log)] != self._log:
            self._log, self._log_texts = [], []
        for entry in state.log[len(self._log) :]:
            self._log.append(entry)
            self._log_texts.append(_dumps(_log_to_json(entry)))
        return ",".join(self._log_texts)

    def _entrants_text(self, state: RunState) -> str:
        entries, purchases = state.entries, state.purchases
        key = (tuple(entries), tuple(map(tuple, entries.values())), tuple(purchases), tuple(purchases.values()))
        if self._entrants is None or self._entrants[0] != key:
            self._entrants = (key, _dumps(_entrants_to_json(state))[1:-1])
        return self._entrants[1]


def _table_key(table: TablePlay) -> tuple[Any, ...]:
    """Every field of `table` as immutable values: equal keys, equal JSON."""
    return (
        tuple(table.seats.items()),
        table.button_seat,
        table.status,
        table.hand_no,
        table.hand_level,
        table.hand_for_hand_round,
        tuple(table.offers),
        tuple(table.busts),
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _entrants_to_json(state: RunState) -> dict[str, Any]:
    return {
        "entries": {player: [_entry_to_json(entry) for entry in entries] for player, entries in state.entries.items()},
        "purchases": {
            player: [purchases.rebuys, sorted(purchases.addon_moments)] for player, purchases in state.purchases.items()
        },
    }


def _rest_to_json(state: RunState) -> dict[str, Any]:
    """Everything but the tables, the log and the entrants' records."""
    return {
        "format_version": FORMAT_VERSION,
        "tournament_id": state.tournament_id,
        "currency": state.currency,
        "definition": state.definition.model_dump(mode="json"),
        "jackpots": [programme.model_dump(mode="json") for programme in state.jackpots],
        "started_at": state.started_at.isoformat(),
        "now": state.now.isoformat(),
        "clock_mark": list(state.clock_mark),
        "phase": state.phase,
        "table_winners": list(state.table_winners),
        "hand_for_hand": state.hand_for_hand,
        "hand_for_hand_round": state.hand_for_hand_round,
        "round_busts": [_pending_to_json(pending) for pending in state.round_busts],
        "chips": dict(state.chips),
        "bought_in_hand": dict(state.bought_in_hand),
        "leaving": list(state.leaving),
        "chips_removed": state.chips_removed,
        "hands_completed": state.hands_completed,
        "finished_at": None if state.finished_at is None else state.finished_at.isoformat(),
        "cancelled": state.cancelled,
        "paused_at": None if state.paused_at is None else state.paused_at.isoformat(),
        "paused_for_seconds": state.paused_for.total_seconds(),
    }


def state_from_json(data: dict[str, Any]) -> RunState:
    """The state `state_to_json` wrote; raises `ValueError` for another format version."""
    if data.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"unknown run state format {data.get('format_version')!r}")
    started_at = _time(data["started_at"])
    now = _time(data["now"])
    assert started_at is not None and now is not None
    level, on_break = data["clock_mark"]
    return RunState(
        tournament_id=data["tournament_id"],
        currency=data["currency"],  # migration 0010 wrote it into the snapshots saved before it was kept
        definition=TournamentDefinition.model_validate(data["definition"]),
        jackpots=tuple(JackpotProgramme.model_validate(item) for item in data["jackpots"]),
        started_at=started_at,
        now=now,
        clock_mark=(level, on_break),
        tables={table_id: _table_from_json(table) for table_id, table in data["tables"]},
        phase=data["phase"],
        table_winners=list(data.get("table_winners", [])),  # absent from snapshots older than P-2.5's prizes
        hand_for_hand=data["hand_for_hand"],
        hand_for_hand_round=data["hand_for_hand_round"],
        round_busts=[_pending_from_json(item) for item in data["round_busts"]],
        chips=dict(data["chips"]),
        bought_in_hand=dict(data["bought_in_hand"]),
        entries={player: [_entry_from_json(item) for item in items] for player, items in data["entries"].items()},
        purchases={
            player: PlayerPurchases(rebuys=rebuys, addon_moments=frozenset(moments))
            for player, (rebuys, moments) in data["purchases"].items()
        },
        log=[_log_from_json(item) for item in data["log"]],
        leaving=list(data["leaving"]),
        chips_removed=data["chips_removed"],
        hands_completed=data["hands_completed"],
        finished_at=_time(data["finished_at"]),
        cancelled=data["cancelled"],
        # Absent from snapshots older than pauses: never paused.
        paused_at=_time(data.get("paused_at")),
        paused_for=timedelta(seconds=data.get("paused_for_seconds", 0)),
    )
