"""The handler table: each command's use case (`commands`), and the two ways in — `handle` for a caller's
request (the API, the lobby, the clock's automatic satellite registrations), whose handler opens the units of
work its use case needs (`Director.unit`: one, or two around a wallet call — the payment's step committed before
the call, its answer applied after it); and `handle_in` for work its caller runs inside a unit of work it holds
(a consumed message in the inbox's transaction, `consumed`; a clock duty in a unit of its own, `clock`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from platform_kit.unit_of_work import UnitOfWork

from tournament_director.service import (
    definitions,
    lifecycle,
    pauses,
    purchases,
    recurring,
    registration,
    runs,
    sanctions,
    self_exclusions,
    table_events,
)
from tournament_director.service.commands import (
    ApplySanction,
    Cancel,
    ChangeLevel,
    Command,
    CreateTournament,
    DealVoidedHandAgain,
    DeclineLapsedOffer,
    NoteRejectedCommand,
    OpenRegistration,
    Pause,
    Purchase,
    RegisterPlayer,
    Resume,
    StartNow,
    StartScheduled,
    StopRecurring,
    TakeHandResult,
    UnitCommand,
    Unregister,
    WithdrawSelfExcluded,
)
from tournament_director.service.context import Director

R = TypeVar("R")
Handler = Callable[[Director, Any], Awaitable[Any]]
UnitHandler = Callable[[Director, UnitOfWork, Any], Awaitable[Any]]

HANDLERS: dict[type[Command[Any]], Handler | UnitHandler] = {
    # a caller's request (`handle`)
    CreateTournament: definitions.create,
    RegisterPlayer: registration.register,
    Unregister: registration.unregister,
    Purchase: purchases.purchase,
    StartNow: lifecycle.start_now,
    StopRecurring: recurring.stop,
    Pause: pauses.pause,
    Resume: pauses.resume,
    Cancel: lifecycle.cancel_by_operator,
    # a consumed message (`handle_in`)
    TakeHandResult: table_events.take_hand_result,
    DealVoidedHandAgain: table_events.deal_voided_hand_again,
    NoteRejectedCommand: table_events.note_rejected_command,
    ApplySanction: sanctions.apply,
    WithdrawSelfExcluded: self_exclusions.withdraw,
    # a clock duty (`handle_in`)
    OpenRegistration: lifecycle.open_registration,
    StartScheduled: lifecycle.start_scheduled,
    ChangeLevel: runs.change_level,
    DeclineLapsedOffer: purchases.decline_lapsed,
}


async def handle(director: Director, command: Command[R]) -> R:
    """Run `command`'s use case; its answer."""
    assert not isinstance(command, UnitCommand), f"{type(command).__name__} runs in its caller's unit: handle_in"
    return cast(R, await cast(Handler, HANDLERS[type(command)])(director, command))


async def handle_in(director: Director, uow: UnitOfWork, command: UnitCommand[R]) -> R:
    """Run `command` inside `uow`, which its caller commits; its answer."""
    return cast(R, await cast(UnitHandler, HANDLERS[type(command)])(director, uow, command))
