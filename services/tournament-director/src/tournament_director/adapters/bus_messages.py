"""What the service adds to a run's table commands on the way to the bus: the tables' timers (its configuration,
not the run's) and the routing key of the shard queue that owns each table. The run's messages are the kit's
contracts already (`domain.run_messages`): nothing else is mapped."""

from __future__ import annotations

import dataclasses

from platform_kit.events import Command
from platform_kit.events.table import OpenTable, command_routing_key

from tournament_director.domain.run_messages import TableCommand


@dataclasses.dataclass(frozen=True)
class TableTimers:
    """What the director's tables are opened with (`OpenTable`'s fields the run leaves to the service)."""

    action_seconds: int
    time_bank_seconds: int


def table_command(command: TableCommand, timers: TableTimers, shards: int) -> tuple[Command, str]:
    """The command as sent (a table opened with the service's timers) and the routing key of its shard."""
    if isinstance(command, OpenTable):
        command = command.model_copy(update=dataclasses.asdict(timers))
    return command, command_routing_key(command, command.table_id, shards)
