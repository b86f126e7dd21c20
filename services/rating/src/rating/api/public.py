"""The public leaderboard (P-11.5): nicknames, ranks, ratings and tiers — never a player id."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from rating.api.deps import ContextDep
from rating.api.schemas import LeaderboardOut
from rating.service.ratings import leaderboard_page, live_leaderboard_page

router = APIRouter(prefix="/v1", tags=["leaderboard"])


@router.get("/leaderboard", response_model=LeaderboardOut)
async def leaderboard(
    context: ContextDep,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    size: Annotated[int, Query(ge=1, le=200)] = 50,
    standing: Annotated[Literal["closed", "now"], Query(description="`now`: the standing as of now.")] = "closed",
) -> LeaderboardOut:
    """The standings of the last closed day, best first: the tiers shown are the tiers in force. With
    `standing=now`, the standing as of now: today's ratings, each with the tier its rank gives (provisional until
    the day closes at `tiers_recomputed_at`)."""
    read = live_leaderboard_page if standing == "now" else leaderboard_page
    return LeaderboardOut.of(await read(context, page, size))
