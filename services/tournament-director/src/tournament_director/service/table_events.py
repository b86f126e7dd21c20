"""What the table engine reports: completed hands drive the tournament, voided hands are dealt again, refused
commands are a bug to see at once. Each message is applied in the transaction that records it in the inbox."""

from __future__ import annotations

import logging

from platform_kit.bus import Envelope
from platform_kit.events import table as table_bus
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.domain.run import RunError
from tournament_director.service.context import Director
from tournament_director.service.runs import act_on_run

log = logging.getLogger(__name__)


class TableEvents:
    def __init__(self, director: Director) -> None:
        self.director = director

    async def hand_completed(self, session: AsyncSession, envelope: Envelope) -> None:
        event = envelope.event()
        assert isinstance(event, table_bus.HandCompleted)
        if event.tournament_id is None:
            return  # a cash table: not ours
        try:
            await act_on_run(
                self.director, session, event.tournament_id, lambda r, now: r.on_hand_completed(event, now)
            )
        except RunError as error:
            # A table closed by the end of the tournament, or a duplicate: nothing to take from it.
            log.warning("hand result not taken", extra={"hand_id": event.hand_id, "reason": str(error)})

    async def hand_voided(self, session: AsyncSession, envelope: Envelope) -> None:
        """A crash voided the hand (stacks back at its start, chips bought during it added, P-10): deal it again,
        at the same level."""
        event = envelope.event()
        assert isinstance(event, table_bus.HandVoided)
        if event.tournament_id is None:
            return
        await act_on_run(
            self.director, session, event.tournament_id, lambda r, _: r.on_hand_voided(event.table_id, event.hand_no)
        )

    async def command_rejected(self, session: AsyncSession, envelope: Envelope) -> None:
        event = envelope.event()
        assert isinstance(event, table_bus.CommandRejected)
        if event.table_id.count(".") != 2:
            return  # not one of the director's tables (their ids are <tournament>.<phase>.<number>)
        self.director.metrics.commands_rejected.labels(event.command, event.code).inc()
        log.error(
            "the table engine refused a director command",
            extra={"table_id": event.table_id, "command": event.command, "code": event.code, "detail": event.message},
        )
