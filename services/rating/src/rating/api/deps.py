"""What routes need: the service context, the internal token check, and the calling principal's headers."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request
from platform_kit.app import runtime_of
from platform_kit.errors import ProblemError

from rating.service.context import Context
from rating.service.principals import Principal, Role


def context_of(request: Request) -> Context:
    context: Context = request.app.state.context
    return context


async def require_internal_token(request: Request, x_internal_token: Annotated[str | None, Header()] = None) -> None:
    """Internal routes are for the platform's services (the gateway, the director) and operations only."""
    expected = runtime_of(request).settings.internal_token
    if x_internal_token is None or not hmac.compare_digest(x_internal_token.encode(), expected.encode()):
        raise ProblemError("unauthorized", "A valid X-Internal-Token header is required.", status=401)


def principal_of(
    x_principal_role: Annotated[str | None, Header(description="player, operator or admin")] = None,
    x_principal_id: Annotated[str | None, Header(description="The player's or staff member's id")] = None,
    x_concessionaire_id: Annotated[str | None, Header(description="The player's or operator's concessionaire")] = None,
) -> Principal:
    """The caller the gateway authenticated (see service/principals.py)."""
    if not x_principal_role or not x_principal_id:
        raise ProblemError(
            "rating.principal_missing", "Conduct calls carry X-Principal-Role and X-Principal-Id.", status=401
        )
    try:
        role = Role(x_principal_role)
    except ValueError:
        raise ProblemError("forbidden", f"A {x_principal_role} may not use the conduct registry.", status=403) from None
    if role is Role.OPERATOR and not x_concessionaire_id:
        raise ProblemError("rating.principal_missing", "An operator's calls carry X-Concessionaire-Id.", status=401)
    return Principal(role, x_principal_id, None if role is Role.ADMIN else x_concessionaire_id)


ContextDep = Annotated[Context, Depends(context_of)]
PrincipalDep = Annotated[Principal, Depends(principal_of)]
