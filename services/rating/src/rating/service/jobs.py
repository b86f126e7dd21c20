"""The background jobs (`bootstrap` runs them; operators run them now through `/internal/v1/jobs`): the daily
tier job (P-11.3) and the sweep of expired sanctions, each through `handlers.handle` like any other caller.

In the background the tier job closes yesterday as soon as it is not closed yet: at midnight in the reference
zone, or at start-up after a pause (days missed in between are skipped: only the latest day's tiers count).
"""

from __future__ import annotations

import asyncio
import logging

from rating.adapters.tiers import latest_tier_day
from rating.service.commands import CloseDay, LiftDueSanctions, TierRun
from rating.service.context import Context
from rating.service.handlers import handle

log = logging.getLogger(__name__)
EXPIRY_BATCH = 200


async def close_yesterday_if_due(context: Context) -> TierRun | None:
    yesterday = context.yesterday()
    async with context.units.unit() as uow:
        latest = await latest_tier_day(uow.session)
    if latest is not None and latest.day >= yesterday:
        return None
    return await handle(context, CloseDay(yesterday))


async def run_tier_job(context: Context, interval_seconds: float) -> None:
    """The background loop: check every `interval_seconds` whether a day has closed."""
    while True:
        await close_yesterday_if_due(context)
        await asyncio.sleep(interval_seconds)


async def lift_expired(context: Context) -> int:
    """Lift (and announce) every temporary sanction whose end has come, a batch per unit of work; how many."""
    lifted = 0
    while True:
        batch = await handle(context, LiftDueSanctions(EXPIRY_BATCH))
        lifted += batch
        if batch < EXPIRY_BATCH:
            return lifted


async def run_expiry_job(context: Context, interval_seconds: float) -> None:
    while True:
        if count := await lift_expired(context):
            log.info("expired sanctions lifted", extra={"count": count})
        await asyncio.sleep(interval_seconds)
