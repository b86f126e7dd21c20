"""A `TournamentRun`'s messages as bus messages: table commands (`platform_kit.events.table`) routed to the shard
that owns the table, and tournament events (`platform_kit.events.tournament`).

The run's dataclasses carry the contracts' field names (tests/test_run_messages.py checks it), so the mapping is
mechanical: dataclasses to dicts, tuples to lists, times to ISO strings, enums to their values. The fields the run
has no say in come from the service: the tables' timers, the currency, when a rebuy offer lapses.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import Enum
from typing import Any

from platform_kit.events import Command, Event
from platform_kit.events import table as table_bus
from platform_kit.events import tournament as tournament_bus
from platform_kit.events.table import command_routing_key

from tournament_director.domain import run_messages as run

TABLE_COMMANDS: dict[type, type[Command]] = {
    run.OpenTable: table_bus.OpenTable,
    run.SeatPlayer: table_bus.SeatPlayer,
    run.UnseatPlayer: table_bus.UnseatPlayer,
    run.AddChips: table_bus.AddChips,
    run.StartHand: table_bus.StartHand,
    run.CloseTable: table_bus.CloseTable,
}

TOURNAMENT_EVENTS: dict[type, type[Event]] = {
    run.TournamentStarted: tournament_bus.TournamentStarted,
    run.LevelChanged: tournament_bus.LevelChanged,
    run.TableBroken: tournament_bus.TableBroken,
    run.PlayerMoved: tournament_bus.PlayerMoved,
    run.PlayerEliminated: tournament_bus.PlayerEliminated,
    run.TournamentFinished: tournament_bus.TournamentFinished,
    run.TournamentCancelled: tournament_bus.TournamentCancelled,
    run.RebuyOffered: tournament_bus.RebuyOffered,
    run.AddonOffered: tournament_bus.AddonOffered,
    run.TableHeld: tournament_bus.TableHeld,
    run.HandForHandChanged: tournament_bus.HandForHandChanged,
    run.FinalTableStarted: tournament_bus.FinalTableStarted,
    run.ShootoutPhaseStarted: tournament_bus.ShootoutPhaseStarted,
    run.JackpotQualified: tournament_bus.JackpotQualified,
    run.TournamentPaused: tournament_bus.TournamentPaused,
    run.TournamentResumed: tournament_bus.TournamentResumed,
}


@dataclasses.dataclass(frozen=True)
class TableTimers:
    """What the director's tables are opened with (`OpenTable`'s fields the run leaves to the service)."""

    action_seconds: int
    time_bank_seconds: int


def payload(value: Any) -> Any:
    """A run message (or any part of one) as JSON-able data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: payload(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [payload(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def table_command(message: run.TableCommand, timers: TableTimers, shards: int) -> tuple[Command, str]:
    """The command and the routing key of the shard queue that owns its table."""
    data = payload(message)
    if isinstance(message, run.OpenTable):
        data.update(action_seconds=timers.action_seconds, time_bank_seconds=timers.time_bank_seconds)
    command = TABLE_COMMANDS[type(message)].model_validate(data)
    return command, command_routing_key(command, message.table_id, shards)


def tournament_event(message: run.TournamentEvent, **extra: Any) -> Event:
    """The bus event of a run event; `extra` fills the fields the run leaves to the service (`currency` of a
    finished tournament, `expires_at` of a rebuy offer)."""
    return TOURNAMENT_EVENTS[type(message)].model_validate({**payload(message), **extra})
