"""The daily tier job (P-11.3, P-11.4, P-11.8): closes a day, publishes the tier changes, refreshes the standings.

Closing day D ranks every player on their rating at the end of D, stores the day's cutoffs, the tier now in
force for each player whose tier changed (with a `rating.tier.changed` event each, in the same transaction),
and the public standings of D. Running D again publishes only what changed since (nothing, unless results
dated on or before D arrived in between); a day before the last closed one is refused, as the tiers in
force must never go back in time. There is no other way to set a tier (P-11.6). When it runs: `jobs`.
"""

from __future__ import annotations

import logging
from datetime import date

from platform_kit.errors import Conflict, ProblemError
from platform_kit.events.rating import TierChanged
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.ratings import all_summaries, awards_of_players
from rating.adapters.sql import lock_for_transaction
from rating.adapters.tiers import (
    latest_tier_day,
    replace_standings,
    save_tier_changes,
    save_tier_day,
    tiers_in_force,
)
from rating.domain import (
    Leaderboard,
    RatingSummary,
    TierCutoffs,
    TierTable,
    compute_tiers,
    summarize,
    tier_changes,
)
from rating.service.commands import CloseDay, TierRun
from rating.service.context import Context

log = logging.getLogger(__name__)

# pg_advisory_xact_lock key: one tier run at a time across the service's replicas ("rating tiers").
TIER_RUN_LOCK = 0x7261_7469_6E67


async def close_day(context: Context, uow: UnitOfWork, command: CloseDay) -> TierRun:
    """Compute and publish the tiers of `day` (idempotent)."""
    day = command.day
    if day >= context.today():
        raise ProblemError(
            "rating.day_not_closed", f"{day} has not closed yet in {context.zone.key}.", status=422, day=day.isoformat()
        )
    await lock_for_transaction(uow.session, TIER_RUN_LOCK)
    latest = await latest_tier_day(uow.session)
    if latest is not None and day < latest.day:
        raise Conflict(
            "rating.tier_day_superseded",
            f"Tiers are already in force for {latest.day}; they cannot be recomputed for an earlier day.",
            latest_day=latest.day.isoformat(),
        )
    summaries = await summaries_at_end_of(uow.session, day)
    table = compute_tiers(summaries, day)
    before = TierTable(latest or TierCutoffs(day, 0, ()), await tiers_in_force(uow.session))
    changes = tier_changes(before, table)
    await save_tier_changes(uow.session, changes, day)
    for change in changes:
        await uow.publish(
            TierChanged(
                player_id=change.player_id,
                previous=change.before.value,
                current=change.after.value,
                as_of_day=day.isoformat(),
            ),
        )
    board = Leaderboard.build(summaries, day)
    await replace_standings(uow.session, day, board.page(1, board.active_count).entries if board.active_count else ())
    await save_tier_day(uow.session, table.cutoffs, context.now())
    log.info(
        "tiers computed", extra={"day": day.isoformat(), "active": table.cutoffs.active_count, "changes": len(changes)}
    )
    return TierRun(day, table.cutoffs.active_count, len(changes))


async def summaries_at_end_of(session: AsyncSession, day: date) -> list[RatingSummary]:
    """Every player's summary as it stood at the end of `day`: stored summaries already hold later awards
    for players who played since, whose summaries are refolded from their awards up to `day`."""
    summaries = await all_summaries(session)
    later = [s.player_id for s in summaries if s.last_day is not None and s.last_day > day]
    if not later:
        return summaries
    histories = await awards_of_players(session, later)
    refolded = {p: summarize(p, histories[p], as_of=day) for p in later}
    return [refolded.get(s.player_id, s) for s in summaries]
