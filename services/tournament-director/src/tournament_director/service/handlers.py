"""The handler table: each command's use case (`commands`), and `handle`, the one way in for callers — the API,
the clock, the lobby. A handler opens the units of work its use case needs (`Director.unit`): one, or two
around a wallet call (the payment's step committed before the call, its answer applied after it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from tournament_director.service import definitions, lifecycle, pauses, purchases, recurring, registration
from tournament_director.service.commands import (
    Cancel,
    Command,
    CreateTournament,
    Pause,
    Purchase,
    RegisterPlayer,
    Resume,
    StartNow,
    StopRecurring,
    Unregister,
)
from tournament_director.service.context import Director

R = TypeVar("R")
Handler = Callable[[Director, Any], Awaitable[Any]]

HANDLERS: dict[type[Command[Any]], Handler] = {
    CreateTournament: definitions.create,
    RegisterPlayer: registration.register,
    Unregister: registration.unregister,
    Purchase: purchases.purchase,
    StartNow: lifecycle.start_now,
    StopRecurring: recurring.stop,
    Pause: pauses.pause,
    Resume: pauses.resume,
    Cancel: lifecycle.cancel_by_operator,
}


async def handle(director: Director, command: Command[R]) -> R:
    """Run `command`'s use case; its answer."""
    return cast(R, await HANDLERS[type(command)](director, command))
