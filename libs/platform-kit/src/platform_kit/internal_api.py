"""What an internal route trusts: the internal token that admits a service-to-service call, and the principal
the gateway authenticated, which it passes on in `X-Principal-*` headers.

Every service closes its internal routes and reads its caller the same way, from these; it never declares its
own (tests/test_kit_plumbing.py checks).

    router = APIRouter(prefix="/internal/v1", dependencies=[Depends(require_internal_token)])

    async def principal_of(caller: PrincipalHeadersDep) -> Principal:
        return Principal(*caller.authenticated(Role, concessionaire_for={Role.OPERATOR}))
"""

from __future__ import annotations

import hmac
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, TypeVar

from fastapi import Depends, Header, Request

from platform_kit.app import runtime_of
from platform_kit.errors import Forbidden, ProblemError

INTERNAL_TOKEN_HEADER = "X-Internal-Token"


async def require_internal_token(
    request: Request,
    x_internal_token: Annotated[
        str | None, Header(description="The platform's shared secret: only its services and the gateway call here.")
    ] = None,
) -> None:
    """Admits the call when it carries the runtime's `internal_token`, compared in constant time (the answer's
    timing says nothing about how much of a guess was right); 401 `unauthorized` otherwise."""
    expected = runtime_of(request).settings.internal_token
    if x_internal_token is None or not hmac.compare_digest(x_internal_token.encode(), expected.encode()):
        raise ProblemError("unauthorized", f"A valid {INTERNAL_TOKEN_HEADER} header is required.", status=401)


R = TypeVar("R", bound=StrEnum)


@dataclass(frozen=True, slots=True)
class PrincipalHeaders:
    """Who the caller is, as the gateway says on a relayed call (`X-Principal-Role`, `X-Principal-Id`,
    `X-Concessionaire-Id`), not yet checked. Believed only behind `require_internal_token`: a client reaches a
    service through the gateway alone, which sets these itself."""

    role: str | None
    subject_id: str | None
    concessionaire_id: str | None

    def authenticated(self, roles: type[R], *, concessionaire_for: Collection[R] = ()) -> tuple[R, str, str | None]:
        """The caller's role among `roles`, their id, and their concessionaire (None when not sent).
        401 `principal_missing` without a role or an id, or without a concessionaire for a role in
        `concessionaire_for`; 403 `forbidden` for a role not in `roles`."""
        if not self.role or not self.subject_id:
            raise ProblemError(
                "principal_missing", "Internal calls carry X-Principal-Role and X-Principal-Id.", status=401
            )
        try:
            role = roles(self.role)
        except ValueError:
            raise Forbidden("forbidden", f"A caller with the role {self.role!r} may not call this service.") from None
        if role in concessionaire_for and not self.concessionaire_id:
            raise ProblemError("principal_missing", f"A {role.value}'s calls carry X-Concessionaire-Id.", status=401)
        return role, self.subject_id, self.concessionaire_id or None


async def principal_headers(
    x_principal_role: Annotated[
        str | None,
        Header(description="The role the gateway authenticated the caller in (player, partner, operator, admin)"),
    ] = None,
    x_principal_id: Annotated[str | None, Header(description="The caller's id")] = None,
    x_concessionaire_id: Annotated[
        str | None, Header(description="The caller's concessionaire, when the caller has one")
    ] = None,
) -> PrincipalHeaders:
    return PrincipalHeaders(x_principal_role, x_principal_id, x_concessionaire_id)


PrincipalHeadersDep = Annotated[PrincipalHeaders, Depends(principal_headers)]
