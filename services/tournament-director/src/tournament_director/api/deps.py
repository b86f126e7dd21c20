"""What routes need: the director, the internal token check, the calling principal and the Idempotency-Key."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request
from platform_kit.app import runtime_of
from platform_kit.errors import ProblemError

from tournament_director.service.context import Director
from tournament_director.service.principals import Principal, Role

MAX_KEY_LENGTH = 120


def director_of(request: Request) -> Director:
    director: Director = request.app.state.director
    return director


async def require_internal_token(request: Request, x_internal_token: Annotated[str | None, Header()] = None) -> None:
    """Internal routes are for the gateway and the platform's services only."""
    expected = runtime_of(request).settings.internal_token
    if x_internal_token is None or not hmac.compare_digest(x_internal_token.encode(), expected.encode()):
        raise ProblemError("unauthorized", "A valid X-Internal-Token header is required.", status=401)


def principal_of(
    x_principal_role: Annotated[str | None, Header(description="player, partner, operator or admin")] = None,
    x_principal_id: Annotated[str | None, Header(description="The caller's id")] = None,
    x_concessionaire_id: Annotated[str | None, Header(description="The caller's concessionaire")] = None,
) -> Principal:
    if not x_principal_role or not x_principal_id:
        raise ProblemError("principal_missing", "Internal calls carry X-Principal-Role and X-Principal-Id.", status=401)
    try:
        role = Role(x_principal_role)
    except ValueError:
        raise ProblemError("forbidden", f"Unknown role {x_principal_role!r}.", status=403) from None
    if role in (Role.OPERATOR, Role.PARTNER) and not x_concessionaire_id:
        raise ProblemError("principal_missing", f"A {role.value}'s calls carry X-Concessionaire-Id.", status=401)
    return Principal(role, x_principal_id, x_concessionaire_id or None)


def optional_key(idempotency_key: Annotated[str | None, Header()] = None) -> str | None:
    if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_KEY_LENGTH:
        raise ProblemError("idempotency_key_invalid", f"An Idempotency-Key has 1 to {MAX_KEY_LENGTH} characters.")
    return idempotency_key


def required_key(key: Annotated[str | None, Depends(optional_key)]) -> str:
    if key is None:
        raise ProblemError("idempotency_key_missing", "Money-moving calls carry an Idempotency-Key header.")
    return key


DirectorDep = Annotated[Director, Depends(director_of)]
PrincipalDep = Annotated[Principal, Depends(principal_of)]
OptionalKey = Annotated[str | None, Depends(optional_key)]
RequiredKey = Annotated[str, Depends(required_key)]
