"""Public, read-only routes: the lobby, a tournament's page and standings, the templates."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from tournament_director.api.deps import DirectorDep
from tournament_director.api.schemas import LobbyItem, StandingsOut, TemplateOut, TournamentOut
from tournament_director.service import definitions, queries

router = APIRouter(prefix="/v1", tags=["lobby"])

StatusFilter = Literal["announced", "registering", "running", "finished", "cancelled"]
KindFilter = Literal["sit_and_go", "scheduled"]


@router.get("/tournaments", response_model=list[LobbyItem], summary="The lobby")
async def lobby(
    director: DirectorDep,
    status: Annotated[StatusFilter | None, Query()] = None,
    kind: Annotated[KindFilter | None, Query()] = None,
) -> list[dict[str, Any]]:
    return await queries.lobby(director, status, kind)


@router.get(
    "/tournaments/{tournament_id}",
    response_model=TournamentOut,
    summary="A tournament: definition, payouts, clock, tables",
)
async def tournament(tournament_id: str, director: DirectorDep) -> dict[str, Any]:
    """The lobby fields, plus the whole definition, the payout schedule for the current field (P-8.4), the prize
    pool and prizes once running, the clock (level, blinds, when it changes) and the tables with their players."""
    return await queries.details(director, tournament_id)


@router.get(
    "/tournaments/{tournament_id}/standings",
    response_model=StandingsOut,
    # A player's position, prize and disqualification appear once ranked, as before: not as nulls.
    response_model_exclude_unset=True,
    summary="Chips, tables and finishing positions",
)
async def standings(tournament_id: str, director: DirectorDep) -> dict[str, Any]:
    return await queries.standings(director, tournament_id)


@router.get(
    "/templates", response_model=list[TemplateOut], summary="Tournament templates with an example definition each"
)
async def templates() -> list[dict[str, Any]]:
    return definitions.catalogue()
