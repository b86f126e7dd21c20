"""Operations: run the background jobs now. Computing tiers is the only way tiers change (P-11.6)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from platform_kit.internal_api import require_internal_token

from rating.api.deps import ContextDep
from rating.api.schemas import ExpiryRunOut, TierRunIn, TierRunOut
from rating.service.commands import CloseDay
from rating.service.handlers import handle
from rating.service.jobs import lift_expired

router = APIRouter(prefix="/internal/v1/jobs", tags=["operations"], dependencies=[Depends(require_internal_token)])


@router.post("/tiers", response_model=TierRunOut)
async def run_tier_job(body: TierRunIn, context: ContextDep) -> TierRunOut:
    """Close a day: compute every player's tier from the ratings at its end and publish the changes.
    Idempotent: a second run of the same day publishes only what results arrived since changed."""
    run = await handle(context, CloseDay(body.day or context.yesterday()))
    return TierRunOut(day=run.day, active_count=run.active_count, changes=run.changes)


@router.post("/sanction-expiry", response_model=ExpiryRunOut)
async def run_sanction_expiry(context: ContextDep) -> ExpiryRunOut:
    """Lift the temporary sanctions whose end has come, as the background sweep does."""
    return ExpiryRunOut(lifted=await lift_expired(context))
