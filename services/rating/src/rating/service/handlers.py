"""The handler table: each command's use case (`commands`), and `handle`, the one way in for callers — the API
and the background jobs (`jobs`). `handle` is the use case's transaction boundary: it opens one unit of work
(`Context.units`) and hands it to the handler, which opens none of its own; the work, its outbox events and
nothing else commit together when the handler returns, or roll back together when it raises.
(The model: cosmicpython's `messagebus.handle`, and the tournament director's `service/handlers.py`.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from platform_kit.unit_of_work import UnitOfWork

from rating.service import reports, sanctions, tiers
from rating.service.commands import (
    CloseDay,
    Command,
    DecideAppeal,
    DecideSanction,
    DismissReport,
    FileAppeal,
    FileReport,
    LiftDueSanctions,
)
from rating.service.context import Context

R = TypeVar("R")
Handler = Callable[[Context, UnitOfWork, Any], Awaitable[Any]]

HANDLERS: dict[type[Command[Any]], Handler] = {
    FileReport: reports.file_report,
    DismissReport: reports.dismiss_report,
    DecideSanction: sanctions.decide,
    FileAppeal: sanctions.file_appeal,
    DecideAppeal: sanctions.decide_appeal,
    CloseDay: tiers.close_day,
    LiftDueSanctions: sanctions.lift_due,
}


async def handle(context: Context, command: Command[R]) -> R:
    """Run `command`'s use case in one unit of work; its answer, once committed."""
    async with context.units.unit() as uow:
        return cast(R, await HANDLERS[type(command)](context, uow, command))
