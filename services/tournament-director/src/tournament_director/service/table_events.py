"""What the table engine reports (`consumed` maps each message of a tournament table to its command): completed
hands drive the tournament, voided hands are dealt again, refused commands are a bug to see at once. Each runs
in the unit of work of the transaction that records the message in the inbox."""

from __future__ import annotations

import logging

from platform_kit.unit_of_work import UnitOfWork

from tournament_director.domain.run import RunError
from tournament_director.service.commands import DealVoidedHandAgain, NoteRejectedCommand, TakeHandResult
from tournament_director.service.context import Director
from tournament_director.service.runs import act_on_run

log = logging.getLogger(__name__)


async def take_hand_result(director: Director, uow: UnitOfWork, command: TakeHandResult) -> None:
    hand = command.hand
    try:
        await act_on_run(director, uow.session, command.tournament_id, lambda r, now: r.on_hand_completed(hand, now))
    except RunError as error:
        # A table closed by the end of the tournament, or a duplicate: nothing to take from it.
        log.warning("hand result not taken", extra={"hand_id": hand.hand_id, "reason": str(error)})


async def deal_voided_hand_again(director: Director, uow: UnitOfWork, command: DealVoidedHandAgain) -> None:
    """A crash voided the hand (stacks back at its start, chips bought during it added, P-10): deal it again, at
    the same level."""
    await act_on_run(
        director,
        uow.session,
        command.tournament_id,
        lambda r, _: r.on_hand_voided(command.table_id, command.hand_no),
    )


async def note_rejected_command(director: Director, _: UnitOfWork, command: NoteRejectedCommand) -> None:
    director.metrics.commands_rejected.labels(command.command, command.code).inc()
    log.error(
        "the table engine refused a director command",
        extra={
            "table_id": command.table_id,
            "command": command.command,
            "code": command.code,
            "detail": command.message,
        },
    )
