"""What cancelling a tournament now would refund (P-10), for the console to show before an operator confirms:
the very computation `lifecycle.cancel` makes, with nothing written and nothing locked.

Before the start every entry comes back in full; while running the P-10 calculator runs on a copy of the run as
last saved (the state after each table's last completed hand). The cancellation itself computes again under its
locks, so a hand completed in between changes the refunds the way the preview would have shown a moment later.
"""

from __future__ import annotations

from platform_kit.errors import Conflict
from platform_kit.events import tournament as events
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import runs
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.run_results import refunds
from tournament_director.service.context import Director
from tournament_director.service.lifecycle import Cancelled, every_entry_back


async def preview(director: Director, session: AsyncSession, tournament: TournamentRecord) -> Cancelled:
    if tournament.status in (Status.ANNOUNCED, Status.REGISTERING):
        returned, registered = await every_entry_back(session, tournament, "P-10")
        return Cancelled(returned.rule, refunds(returned, registered))
    run = None
    if tournament.status is Status.RUNNING:
        run = await runs.peek(session, tournament.tournament_id, director.rng, director.run_cache)
    if run is None or run.is_over:
        raise Conflict(
            "not_cancellable",
            f"The tournament is {tournament.status.value}.",
            tournament_status=tournament.status.value,
        )
    cancellation = run.cancellation_preview(director.now())
    [announced] = [m for m in cancellation.messages if isinstance(m, events.TournamentCancelled)]
    return Cancelled(cancellation.settlement.rule, announced.refunds)
