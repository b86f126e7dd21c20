"""Players as their concessionaire (operator or partner system), the administrators and they themselves see them.

A partner or operator only ever reaches its own concessionaire's players: another concessionaire's player
answers 404, exactly like a player that does not exist.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, status
from platform_kit.errors import Forbidden, ProblemError

from gateway.api.access import allow, services_of
from gateway.api.problem_answers import refusals
from gateway.api.v1 import API_V1
from gateway.api.v1.schemas import EmailChange, NewPlayer, PlayerView, PublicPlayer
from gateway.domain.roles import Principal, Role

router = APIRouter(prefix=API_V1 + "/players", tags=["players"])

Registrar = Annotated[Principal, Depends(allow(Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Anyone = Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Register a player of your concessionaire",
    responses=refusals(
        {
            404: "No such concessionaire (`concessionaire_not_found`)",
            409: "The nickname or email is taken (`nickname_taken`, `email_taken`, `already_registered`)",
            422: "Invalid request (`validation_failed`), `underage` (T-1.4), `nickname_reserved`, "
            "`concessionaire_required`",
        }
    ),
)
async def register(body: NewPlayer, request: Request, principal: Registrar) -> PlayerView:
    concessionaire_id = _target_concessionaire(principal, body.concessionaire_id)
    return PlayerView.of(await services_of(request).accounts.register(concessionaire_id, body.form()))


@router.get("", summary="Your concessionaire's players (administrators: any, or one concessionaire's)")
async def page(
    request: Request,
    principal: Registrar,
    concessionaire_id: Annotated[str | None, Query(description="Administrators only.")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[PlayerView]:
    players = await services_of(request).players.page(principal, concessionaire_id, limit=limit, offset=offset)
    return [PlayerView.of(p) for p in players]


@router.get("/me", summary="Your own account")
async def me(request: Request, principal: Annotated[Principal, Depends(allow(Role.PLAYER))]) -> PlayerView:
    return PlayerView.of(await services_of(request).players.get(principal, principal.subject_id))


@router.get(
    "/public",
    summary="Nicknames of players, by id",
    description="P-11.5: publicly a player is known by nickname only. Unknown ids are left out.",
)
async def public_players(
    request: Request,
    _: Anyone,
    player_id: Annotated[list[str], Query(max_length=200, description="Repeat for several players.")],
) -> list[PublicPlayer]:
    names = await services_of(request).players.nicknames(player_id)
    return [PublicPlayer(player_id=pid, nickname=names[pid]) for pid in player_id if pid in names]


@router.get("/{player_id}", summary="One player")
async def read(player_id: str, request: Request, principal: Anyone) -> PlayerView:
    return PlayerView.of(await services_of(request).players.get(principal, player_id))


@router.patch(
    "/{player_id}", summary="Change a player's email", responses=refusals({409: "The email is taken (`email_taken`)"})
)
async def change_email(
    player_id: str,
    body: EmailChange,
    request: Request,
    principal: Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))],
) -> PlayerView:
    return PlayerView.of(await services_of(request).players.change_email(principal, player_id, body.email))


def _target_concessionaire(principal: Principal, requested: str | None) -> str:
    if principal.role is Role.ADMIN:
        if requested is None:
            raise ProblemError("concessionaire_required", "Administrators name the player's concessionaire_id.")
        return requested
    assert principal.concessionaire_id is not None  # operators and partners always belong to one
    if requested not in (None, principal.concessionaire_id):
        raise Forbidden("not_your_concessionaire", "You may register players only for your own concessionaire.")
    return principal.concessionaire_id
