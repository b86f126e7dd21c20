"""What routes need: the use cases and the staff principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from platform_kit.errors import Forbidden, ProblemError
from platform_kit.internal_api import PrincipalHeadersDep

from totalizator.bootstrap import Services
from totalizator.service.staff import Staff, StaffRole


# The dependencies are `async def` though they never wait: FastAPI runs a plain `def` dependency in a worker
# thread, a thread hop per dependency and request for nothing.
async def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


async def staff_of(caller: PrincipalHeadersDep) -> Staff:
    """The staff member the gateway authenticated: any staff member reads the draws' administration, the
    network's administrators alone change it (`network_admin`). A role is enough here (the id, when sent, is
    recorded with the decisions); a role that is not staff is refused as `staff_only`."""
    if not caller.role:
        raise ProblemError("principal_missing", "Draw administration carries X-Principal-Role.", status=401)
    try:
        role = StaffRole(caller.role)
    except ValueError:
        raise Forbidden("staff_only", "Only operators and administrators administer draws.") from None
    return Staff(role, caller.subject_id or None)


async def network_admin(staff: StaffDep) -> Staff:
    """Decisions on a draw (create, announce, kick-off, result, void, settle, cancel) are the network
    administrators': an operator belongs to one concessionaire, and the draws are every concessionaire's
    (T-1.5). The gateway refuses them first; this is the same rule where the draws are kept."""
    if staff.role is not StaffRole.ADMIN:
        raise Forbidden("admins_only", "Only the network's administrators take decisions on a draw.")
    return staff


ServicesDep = Annotated[Services, Depends(services_of)]
StaffDep = Annotated[Staff, Depends(staff_of)]
AdminDep = Annotated[Staff, Depends(network_admin)]
