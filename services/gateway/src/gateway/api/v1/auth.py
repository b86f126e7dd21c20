"""Sign-up, log-in, token refresh and log-out."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status

from gateway.api.access import allow, client_address, public, services_of
from gateway.api.problem_answers import refusals
from gateway.api.v1 import API_V1
from gateway.api.v1.schemas import PlayerLogin, PrincipalView, RefreshTokenBody, SessionView, SignUp, StaffLogin
from gateway.domain.roles import Principal, Role
from gateway.service.sessions import IssuedSession

SESSION_REFUSALS = refusals(
    {
        401: "Log-in: wrong login or password (`invalid_credentials`); refresh: an unknown, expired or reused "
        "refresh token",
        403: "Log-in and refresh: the player is banned (`player_banned`, P-12.5)",
        404: "Sign-up: no concessionaire has that code (`concessionaire_not_found`)",
        409: "Sign-up: the nickname or email is taken (`nickname_taken`, `email_taken`, `already_registered`)",
        422: "Invalid request (`validation_failed`, with the fields); sign-up: `underage` (T-1.4), `nickname_reserved`",
    }
)
router = APIRouter(prefix=API_V1 + "/auth", tags=["sessions"], responses=SESSION_REFUSALS)


def _session_view(request: Request, issued: IssuedSession) -> SessionView:
    return SessionView.of(issued, services_of(request).context.clock.now())


@router.post(
    "/signup",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(public())],
    summary="Sign up as a player (and be logged in)",
    description="Refused with `nickname_taken` / `email_taken` (409), `concessionaire_not_found` (404) or "
    "`underage` (422, T-1.4).",
)
async def sign_up(body: SignUp, request: Request) -> SessionView:
    issued = await services_of(request).accounts.sign_up(body.concessionaire, body.form())
    return _session_view(request, issued)


@router.post(
    "/login",
    dependencies=[Depends(public())],
    summary="Log in as a player, by nickname or email",
    description="`invalid_credentials` (401) for a wrong login or password; `player_banned` (403, P-12.5); "
    "`too_many_failed_logins` (429, with `Retry-After`) after repeated failures for the account or the address.",
)
async def log_in(body: PlayerLogin, request: Request) -> SessionView:
    accounts = services_of(request).accounts
    return _session_view(request, await accounts.log_in_player(body.login, body.password, client_address(request)))


@router.post(
    "/staff/login",
    dependencies=[Depends(public())],
    summary="Log in as an operator or administrator",
    description="`invalid_credentials` (401) for a wrong email or password; `too_many_failed_logins` (429, with "
    "`Retry-After`) after repeated failures for the account or the address.",
)
async def staff_log_in(body: StaffLogin, request: Request) -> SessionView:
    accounts = services_of(request).accounts
    return _session_view(request, await accounts.log_in_staff(body.email, body.password, client_address(request)))


@router.post(
    "/refresh",
    dependencies=[Depends(public())],
    summary="Exchange a refresh token for a new session",
    description="Each refresh token works once. Presenting a used one ends the whole session "
    "(`refresh_token_reused`, 401); a banned player is refused (`player_banned`, 403).",
)
async def refresh(body: RefreshTokenBody, request: Request) -> SessionView:
    return _session_view(request, await services_of(request).sessions.refresh(body.refresh_token))


@router.post(
    "/logout",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[Depends(public())],
    summary="End the session of a refresh token",
    description="The access token stays valid until it expires (at most its short lifetime).",
)
async def log_out(body: RefreshTokenBody, request: Request) -> Response:
    await services_of(request).sessions.close(body.refresh_token)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/me", summary="Who the credentials belong to")
async def who_am_i(
    principal: Annotated[Principal, Depends(allow(Role.PLAYER, Role.OPERATOR, Role.ADMIN, Role.PARTNER))],
) -> PrincipalView:
    return PrincipalView.of(principal)
