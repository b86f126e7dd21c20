"""Player protection (issue 17, docs/player-protection.md): self-exclusion, session time (reality check and
limit), deposit limits (kept and enforced by the wallet, relayed) and the history of all of them.

Only the player changes their own settings; the player, their concessionaire's operators and the administrators
read them. Another concessionaire's staff get 404, as for a player that does not exist.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status

from gateway.api.access import PlayerInScope, allow_on_player, services_of
from gateway.api.problem_answers import RELAYED, refusals
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.protection_schemas import (
    DepositLimitsRequest,
    HistoryItem,
    ProtectionHistory,
    ProtectionView,
    SelfExclusionRequest,
    SelfExclusionView,
    SessionSettings,
    SessionView,
)
from gateway.domain.roles import Role
from gateway.service.protection import session_clock

router = APIRouter(prefix=API_V1 + "/players/{player_id}/protection", tags=["player protection"])

Reader = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.OPERATOR, Role.ADMIN))]
Owner = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER))]


def _deposit_limits(scope: PlayerInScope) -> str:
    return f"/internal/v1/players/{segment(scope.player.id)}/deposit-limits"


@router.get("", summary="The player's protection settings and the current session (the reality check)")
async def read(request: Request, scope: Reader) -> ProtectionView:
    services = services_of(request)
    protection = services.protection
    record = await protection.current(scope.player)
    now = services.context.clock.now()
    clock = session_clock(record, now)
    session = None
    if clock is not None:
        session = SessionView.of(clock, await protection.net_result(scope.player, clock.started_at))
    return ProtectionView.of(record, now, session)


@router.post(
    "/self-exclusion",
    status_code=status.HTTP_201_CREATED,
    summary="Exclude yourself from play for 30, 60 or 90 days, or permanently (at once, not reversible)",
    description="From now on every play route refuses you with 403 `player_self_excluded`, and your registrations "
    "for tournaments not yet started are withdrawn and refunded. You may still sign in to see your account and "
    "withdraw. While one is in force only a longer one replaces it.",
    responses=refusals({409: "A self-exclusion in force would end early (`self_exclusion_in_force`)"}),
)
async def self_exclude(request: Request, scope: Owner, body: SelfExclusionRequest) -> SelfExclusionView:
    services = services_of(request)
    exclusion = await services.protection.self_exclude(scope.principal, scope.player, body.term)
    return SelfExclusionView.of(exclusion, services.context.clock.now())


@router.put(
    "/session",
    summary="Choose your reality-check interval and session time limit",
    description="Once the limit is reached, play routes refuse you with 403 `session_time_limit_reached` until "
    "you log in again.",
)
async def session_settings(request: Request, scope: Owner, body: SessionSettings) -> ProtectionView:
    services = services_of(request)
    record = await services.protection.set_session_rules(scope.principal, scope.player, body.changes())
    return ProtectionView.of(record, services.context.clock.now(), None)


@router.get(
    "/deposit-limits", summary="Your deposit limits, what each window holds and what remains", responses=RELAYED
)
async def deposit_limits(request: Request, scope: Reader) -> Response:
    return await relay(clients_of(request).wallet, "GET", _deposit_limits(scope), principal=scope.principal)


@router.put(
    "/deposit-limits",
    summary="Set your daily, weekly and monthly deposit limits",
    description="A lower limit applies at once; a higher one (or none) after the cooling-off period. Deposits "
    "past a limit, partners' included, are refused with 422 `deposit_limit_exceeded` and the `remaining` amount.",
    responses=RELAYED,
)
async def set_deposit_limits(request: Request, scope: Owner, body: DepositLimitsRequest) -> Response:
    wallet = clients_of(request).wallet
    json = body.for_wallet(scope.principal.key)
    return await relay(wallet, "PUT", _deposit_limits(scope), principal=scope.principal, json=json)


@router.get("/history", summary="Every change of these settings: who, when, effective when", responses=RELAYED)
async def history(request: Request, scope: Reader) -> ProtectionHistory:
    entries = await services_of(request).protection.history(scope.player)
    return ProtectionHistory(player_id=scope.player.id, changes=[HistoryItem.of(e) for e in entries])
