"""Internal reads for the gateway and the director: a player's rating and history, eligibility, restrictions."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from platform_kit.internal_api import require_internal_token

from rating.api.deps import ContextDep
from rating.api.schemas import EligibilityIn, EligibilityOut, PlayerRatingOut, RestrictionsOut
from rating.domain import AccessPolicy
from rating.service.eligibility import eligibility
from rating.service.ratings import player_rating
from rating.service.standing import restrictions

router = APIRouter(prefix="/internal/v1", dependencies=[Depends(require_internal_token)])


@router.get("/players/{player_id}/rating", tags=["ratings"], response_model=PlayerRatingOut)
async def rating_of_player(
    player_id: str,
    context: ContextDep,
    day: Annotated[date | None, Query(description="Any day; default today in the reference zone.")] = None,
) -> PlayerRatingOut:
    """The player's rating on `day` (P-11.2) with the awards behind it; the gateway shows it to the player."""
    return PlayerRatingOut.of(await player_rating(context, player_id, day))


@router.post("/eligibility", tags=["eligibility"], response_model=EligibilityOut)
async def check_eligibility(body: EligibilityIn, context: ContextDep) -> EligibilityOut:
    """May the player enter a restricted or invitation-only tournament (P-11.7)? Bans and a disqualification
    from the tournament refuse too (P-12.5). The tier is the one in force."""
    policy = AccessPolicy(
        allowed_tiers=None if body.allowed_tiers is None else frozenset(body.allowed_tiers),
        excluded_tiers=frozenset(body.excluded_tiers),
        invitation_only=body.invitation_only,
        invited_player_ids=frozenset({body.player_id}) if body.invitation_only and body.invited else frozenset(),
    )
    answer = await eligibility(context, body.player_id, policy, body.tournament_id)
    return EligibilityOut(eligible=answer.eligibility.eligible, reason=answer.eligibility.reason, tier=answer.tier)


@router.get("/players/{player_id}/restrictions", tags=["sanctions"], response_model=RestrictionsOut)
async def restrictions_of_player(
    player_id: str,
    context: ContextDep,
    room_id: Annotated[str | None, Query(description="The room the player comes through; default their own.")] = None,
) -> RestrictionsOut:
    """What the player's sanctions in force allow now (P-12.5): log-in, registration, chat."""
    return RestrictionsOut.of(player_id, await restrictions(context, player_id, room_id))
