"""What routes need: the use cases, the internal token check, the staff principal, the idempotency key."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request
from platform_kit.app import runtime_of
from platform_kit.errors import Forbidden, ProblemError

from totalizator.service.staff import Staff, StaffRole
from totalizator.service.totalizator import Totalizator

MAX_IDEMPOTENCY_KEY = 100


def totalizator_of(request: Request) -> Totalizator:
    totalizator: Totalizator = request.app.state.totalizator
    return totalizator


async def require_internal_token(request: Request, x_internal_token: Annotated[str | None, Header()] = None) -> None:
    """Internal routes are for the platform's services: the gateway relays players' coupons and staff calls."""
    expected = runtime_of(request).settings.internal_token
    if x_internal_token is None or not hmac.compare_digest(x_internal_token.encode(), expected.encode()):
        raise ProblemError("unauthorized", "A valid X-Internal-Token header is required.", status=401)


def staff_of(
    x_principal_role: Annotated[str | None, Header(description="admin or operator")] = None,
    x_principal_id: Annotated[str | None, Header(description="The staff member's id")] = None,
) -> Staff:
    """The staff member the gateway authenticated: any staff member reads the draws' administration, the
    network's administrators alone change it (`network_admin`)."""
    if not x_principal_role:
        raise ProblemError("principal_missing", "Draw administration carries X-Principal-Role.", status=401)
    try:
        role = StaffRole(x_principal_role)
    except ValueError:
        raise Forbidden("staff_only", "Only operators and administrators administer draws.") from None
    return Staff(role, x_principal_id or None)


def network_admin(staff: StaffDep) -> Staff:
    """Decisions on a draw (create, announce, kick-off, result, void, settle, cancel) are the network
    administrators': an operator belongs to one concessionaire, and the draws are every concessionaire's
    (T-1.5). The gateway refuses them first; this is the same rule where the draws are kept."""
    if staff.role is not StaffRole.ADMIN:
        raise Forbidden("admins_only", "Only the network's administrators take decisions on a draw.")
    return staff


def idempotency_key(idempotency_key: Annotated[str | None, Header()] = None) -> str:
    if not idempotency_key:
        raise ProblemError("idempotency_key_missing", "A coupon carries an Idempotency-Key header.", status=400)
    if len(idempotency_key) > MAX_IDEMPOTENCY_KEY:
        raise ProblemError(
            "idempotency_key_too_long", f"An Idempotency-Key has at most {MAX_IDEMPOTENCY_KEY} characters.", status=400
        )
    return idempotency_key


TotalizatorDep = Annotated[Totalizator, Depends(totalizator_of)]
StaffDep = Annotated[Staff, Depends(staff_of)]
AdminDep = Annotated[Staff, Depends(network_admin)]
IdempotencyKey = Annotated[str, Depends(idempotency_key)]
