"""The lobby's schedule kept by staff (issue 17), relayed by the gateway with the staff member's principal:
administrators see the settings' entries and every stored one, operators their own concessionaire's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from platform_kit.internal_api import require_internal_token

from tournament_director.api.deps import DirectorDep, PrincipalDep
from tournament_director.api.schemas import LobbyEntryOut
from tournament_director.service import lobby_entries

router = APIRouter(
    prefix="/internal/v1/lobby-schedule", tags=["lobby schedule"], dependencies=[Depends(require_internal_token)]
)


@router.get("", response_model=list[LobbyEntryOut], summary="The lobby's schedule: what it keeps open")
async def listed(director: DirectorDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """Each entry with `source`: `settings` (TOURNAMENT_DIRECTOR_LOBBY_SCHEDULE, administrators only, changed
    by deployment) or `console`; `enabled` false once disabled."""
    return await lobby_entries.listed(director, principal)


@router.post("", status_code=201, response_model=LobbyEntryOut, summary="Add an entry to the lobby's schedule")
async def create(
    director: DirectorDep, principal: PrincipalDep, body: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """`{key, body, every_minutes?}`: `body` is a tournament's creation body (`{template, name, buy_in, ...}`);
    without `every_minutes` a sit'n'go kept open as a recurring one, with it a scheduled tournament starting every
    so many minutes from 00:00 UTC. An operator's entry opens tournaments of their concessionaire. 422
    `validation_failed` (every problem, as creating the tournament would say), 409 `lobby_entry_exists`."""
    return await lobby_entries.create(director, principal, body)


@router.delete("/{key}", response_model=LobbyEntryOut, summary="Disable an entry of the lobby's schedule")
async def disable(key: str, director: DirectorDep, principal: PrincipalDep) -> dict[str, Any]:
    """It opens nothing more; an occurrence already registering stays, and its recurring sit'n'go opens no
    successor. Idempotent. 404 `lobby_entry_not_found` (another concessionaire's too)."""
    return await lobby_entries.disable(director, principal, key)
