"""What routes need: the service context (from `app.state.services`, see bootstrap.py) and the calling
principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from platform_kit.internal_api import PrincipalHeadersDep

from rating.bootstrap import Services
from rating.service.context import Context
from rating.service.principals import Principal, Role


# `async def` though it never waits: FastAPI runs a plain `def` dependency in a worker thread.
async def context_of(request: Request) -> Context:
    services: Services = request.app.state.services
    return services.context


async def principal_of(caller: PrincipalHeadersDep) -> Principal:
    """The caller the gateway authenticated (see service/principals.py): partners are refused here, and an
    administrator acts for no concessionaire."""
    role, subject_id, concessionaire_id = caller.authenticated(Role, concessionaire_for={Role.OPERATOR})
    return Principal(role, subject_id, None if role is Role.ADMIN else concessionaire_id)


ContextDep = Annotated[Context, Depends(context_of)]
PrincipalDep = Annotated[Principal, Depends(principal_of)]
