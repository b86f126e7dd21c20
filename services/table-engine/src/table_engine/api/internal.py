"""Internal reads, behind `X-Internal-Token`: a player's own copy of a history (the gateway asks it for the
authenticated player), a hand's owner (its table and tournament, which the gateway checks the auditor's
concessionaire against) and the audit view with the deck (operators and the regulator, P-1.3), once the hand
has ended (P-1.4)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import PlainTextResponse
from platform_kit.app import ReadingDep
from platform_kit.internal_api import require_internal_token

from table_engine.api.public import PHH_MEDIA_TYPE, phh_response
from table_engine.service import queries
from table_engine.service.queries import HandAudit, HandOwner

router = APIRouter(prefix="/internal/v1", tags=["internal"], dependencies=[Depends(require_internal_token)])


@router.get(
    "/hands/{hand_id}/phh",
    summary="A player's copy of a hand history (PHH): their own hole cards and the cards shown",
    response_class=PlainTextResponse,
    responses={200: {"content": {PHH_MEDIA_TYPE: {}}}},
)
async def player_history(
    session: ReadingDep, hand_id: str, player_id: Annotated[str, Query(description="The player the copy is for.")]
) -> PlainTextResponse:
    text = await queries.history(session, hand_id, player_id)
    return phh_response(text, hand_id)


@router.get("/hands/{hand_id}", summary="A hand's table, tournament and status (no card)")
async def hand_owner(session: ReadingDep, hand_id: str) -> HandOwner:
    return await queries.owner(session, hand_id)


@router.get(
    "/hands/{hand_id}/audit",
    summary="Audit: the recorded deck and every hole card (P-1.3), once the hand has ended",
    description="409 `hand_in_progress` while the hand is played: its cards are its players' alone (P-1.4).",
)
async def hand_audit(session: ReadingDep, hand_id: str) -> HandAudit:
    return await queries.audit(session, hand_id)
