"""Reports, staff decisions and appeals (P-12), called through the gateway with the caller's principal headers."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from platform_kit.internal_api import require_internal_token

from rating.adapters.conduct import ReportStatus
from rating.api.deps import ContextDep, PrincipalDep
from rating.api.schemas import (
    AppealDecisionIn,
    AppealIn,
    ConductOut,
    DecisionIn,
    GravityName,
    ReportIn,
    ReportOut,
    SanctionOut,
    gravity_of,
)
from rating.domain import OffenceKind, SanctionContext
from rating.service import reports, standing
from rating.service.commands import DecideAppeal, DecideSanction, Decision, DismissReport, FileAppeal, FileReport
from rating.service.handlers import handle

router = APIRouter(prefix="/internal/v1", tags=["conduct"], dependencies=[Depends(require_internal_token)])


@router.post("/reports", response_model=ReportOut, status_code=201)
async def file_report(body: ReportIn, principal: PrincipalDep, context: ContextDep) -> ReportOut:
    """A player reports an offence (P-12.2), or staff record a check of their concessionaire's."""
    stored = await handle(
        context,
        FileReport(
            principal,
            offender_id=body.offender_id,
            offence=body.offence,
            tournament_id=body.tournament_id,
            description=body.description,
        ),
    )
    return ReportOut.of(stored)


@router.get("/reports", response_model=list[ReportOut])
async def list_reports(
    principal: PrincipalDep,
    context: ContextDep,
    status: ReportStatus | None = None,
    offender_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[ReportOut]:
    """Staff: reports oldest first (an operator's: about their concessionaire's players)."""
    found = await reports.list_reports(context, principal, status=status, offender_id=offender_id, limit=limit)
    return [ReportOut.of(stored) for stored in found]


@router.post("/reports/{report_id}/dismissal", response_model=ReportOut)
async def dismiss_report(report_id: str, principal: PrincipalDep, context: ContextDep) -> ReportOut:
    """Staff: no offence found; the report closes without a sanction."""
    return ReportOut.of(await handle(context, DismissReport(principal, report_id)))


@router.get("/players/{player_id}/conduct", response_model=ConductOut)
async def conduct_of_player(
    player_id: str,
    principal: PrincipalDep,
    context: ContextDep,
    offence: OffenceKind | None = None,
    gravity: GravityName | None = None,
    sanction_context: Annotated[SanctionContext | None, Query(alias="context")] = None,
) -> ConductOut:
    """Staff: the history weighed before deciding (P-12.2); with offence, gravity and context, a suggestion."""
    suggestion_for = None
    if offence is not None and gravity is not None and sanction_context is not None:
        suggestion_for = standing.SuggestionRequest(offence, gravity_of(gravity), sanction_context)
    return ConductOut.of(await standing.conduct(context, principal, player_id, suggestion_for))


@router.get("/players/{player_id}/sanctions", response_model=list[SanctionOut])
async def sanctions_of_player(player_id: str, principal: PrincipalDep, context: ContextDep) -> list[SanctionOut]:
    """The player's sanctions with their appeals, oldest first: for the player themself or their staff."""
    return [SanctionOut.of(s) for s in await standing.sanctions_trail(context, principal, player_id)]


@router.post("/sanctions", response_model=SanctionOut, status_code=201)
async def decide_sanction(body: DecisionIn, principal: PrincipalDep, context: ContextDep) -> SanctionOut:
    """Staff: impose a sanction of P-12.3 (during a tournament) or P-12.4 (after); publishes
    `rating.sanction.decided` for the gateway, the director and the table engine."""
    decision = Decision(
        report_ids=tuple(body.report_ids),
        kind=body.kind,
        context=body.context,
        offence=body.offence,
        gravity=gravity_of(body.gravity),
        tournament_id=body.tournament_id,
        duration=body.duration,
        ban_scope=body.ban_scope,
        ranking_penalty_positions=body.ranking_penalty_positions,
        entries_forfeit=body.entries_forfeit,
        reason=body.reason,
    )
    return SanctionOut.of(await handle(context, DecideSanction(principal, decision)))


@router.get("/sanctions/{sanction_id}", response_model=SanctionOut)
async def get_sanction(sanction_id: str, principal: PrincipalDep, context: ContextDep) -> SanctionOut:
    return SanctionOut.of(await standing.sanction_seen_by(context, principal, sanction_id))


@router.post("/sanctions/{sanction_id}/appeal", response_model=SanctionOut, status_code=201)
async def file_appeal(sanction_id: str, body: AppealIn, principal: PrincipalDep, context: ContextDep) -> SanctionOut:
    """The sanctioned player appeals, once; the sanction stays in force until the appeal is decided."""
    return SanctionOut.of(await handle(context, FileAppeal(principal, sanction_id, body.grounds)))


@router.post("/sanctions/{sanction_id}/appeal/decision", response_model=SanctionOut)
async def decide_appeal(
    sanction_id: str, body: AppealDecisionIn, principal: PrincipalDep, context: ContextDep
) -> SanctionOut:
    """Staff decide the appeal; an overturned sanction is lifted (`rating.sanction.lifted`)."""
    return SanctionOut.of(await handle(context, DecideAppeal(principal, sanction_id, body.outcome)))
