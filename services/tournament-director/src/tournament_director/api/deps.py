"""What routes need: the director and the calling principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from platform_kit.internal_api import PrincipalHeadersDep

from tournament_director.service.context import Director
from tournament_director.service.principals import Principal, Role


# `async def` though it never waits: FastAPI runs a plain `def` dependency in a worker thread, a thread hop per
# request for nothing (as the wallet's `api/context.py`; a registration rush's profile showed it).
async def director_of(request: Request) -> Director:
    director: Director = request.app.state.services.director
    return director


async def principal_of(caller: PrincipalHeadersDep) -> Principal:
    """The caller the gateway authenticated; operators and partners act for their concessionaire."""
    role, subject_id, concessionaire_id = caller.authenticated(Role, concessionaire_for={Role.OPERATOR, Role.PARTNER})
    return Principal(role, subject_id, concessionaire_id)


DirectorDep = Annotated[Director, Depends(director_of)]
PrincipalDep = Annotated[Principal, Depends(principal_of)]
