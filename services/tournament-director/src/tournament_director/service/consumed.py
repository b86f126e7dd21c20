"""What the director consumes from the bus: each contract mapped to its command (`commands`), run through the
handler table in the unit of work of the transaction the kit's inbox records the message in
(`Reactions.unit_in`). A message that is not the director's (a cash table's hand) maps to no command.

Invariant: a message's effect and its inbox record commit together (the inbox owns the transaction; the unit
commits nothing of its own), so a redelivery changes nothing — exactly-once stays the inbox's job. Internal
events a handler raises are reacted to after that commit.

Crash behaviour: a handler that raises rolls back the inbox's transaction (the message's record with it), and the
broker delivers the message again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from platform_kit.bus import Envelope
from platform_kit.events import gateway as gateway_bus
from platform_kit.events import rating as rating_bus
from platform_kit.events import table as table_bus
from platform_kit.events.base import Event
from platform_kit.inbox import SessionHandler
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.service.commands import (
    ApplySanction,
    DealVoidedHandAgain,
    NoteRejectedCommand,
    TakeHandResult,
    UnitCommand,
    WithdrawSelfExcluded,
)
from tournament_director.service.context import Director
from tournament_director.service.handlers import handle_in

ToCommand = Callable[[Any], UnitCommand[None] | None]


def _hand_completed(hand: table_bus.HandCompleted) -> TakeHandResult | None:
    return None if hand.tournament_id is None else TakeHandResult(hand.tournament_id, hand)  # None: a cash table


def _hand_voided(hand: table_bus.HandVoided) -> DealVoidedHandAgain | None:
    return None if hand.tournament_id is None else DealVoidedHandAgain(hand.tournament_id, hand.table_id, hand.hand_no)


def _command_rejected(refusal: table_bus.CommandRejected) -> NoteRejectedCommand | None:
    if refusal.table_id.count(".") != 2:
        return None  # not one of the director's tables (their ids are <tournament>.<phase>.<number>)
    return NoteRejectedCommand(refusal.table_id, refusal.command, refusal.code, refusal.message)


#: Contract consumed -> its command (None: not the director's).
CONSUMED: dict[type[Event], ToCommand] = {
    table_bus.HandCompleted: _hand_completed,
    table_bus.HandVoided: _hand_voided,
    table_bus.CommandRejected: _command_rejected,
    rating_bus.SanctionDecided: ApplySanction,
    gateway_bus.PlayerSelfExcluded: lambda excluded: WithdrawSelfExcluded(excluded.player_id),
}


def subscribe(director: Director) -> None:
    """Consume every contract of `CONSUMED` (before the runtime starts)."""
    for contract, to_command in CONSUMED.items():
        director.runtime.on(contract.TYPE, _consumer(director, to_command))


def _consumer(director: Director, to_command: ToCommand) -> SessionHandler:
    async def consume(session: AsyncSession, envelope: Envelope) -> None:
        command = to_command(envelope.event())
        if command is not None:
            async with director.reactions.unit_in(session) as uow:
                await handle_in(director, uow, command)

    return consume
