"""What every route needs: the caller's concessionaire, the command runner with its idempotency key scope, and
a statement page. The kit checks the Idempotency-Key (platform_kit.idempotency): internal commands take keys that
services compose around a caller's key, partners' commands a caller's own key."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request
from fastapi.responses import JSONResponse
from platform_kit.errors import ProblemError
from platform_kit.idempotency import IdempotencyKeyHeader, keyed_answer, required_key, required_service_key
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.ledger import PostedOperation
from wallet.adapters.statements import StatementFilter, parse_cursor
from wallet.api.schemas import OperationOut
from wallet.bootstrap import Services
from wallet.domain.idempotency import fingerprint
from wallet.domain.operations import OperationKind
from wallet.service.posting_batches import Builder, KeyedPosting

INTERNAL_SCOPE = "internal"
MOUNT = "/internal"
"""Where the wallet's routes are mounted (`/internal/v1`, as every service's internal routes; `/v1` until issue 19)."""


# The dependencies are `async def` though they never wait: FastAPI runs a plain `def` dependency in a worker
# thread, a thread hop per dependency and request for nothing.
async def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ACTING_DESCRIPTION = (
    "On internal calls made for a concessionaire (e.g. a partner's buy-in relayed by the director): the wallet "
    "refuses to touch anything that is not that concessionaire's."
)
PARTNER_DESCRIPTION = "The concessionaire the gateway authenticated."


ActingHeader = Annotated[str | None, Header(description=ACTING_DESCRIPTION)]
PartnerHeader = Annotated[str | None, Header(description=PARTNER_DESCRIPTION)]


async def acting_concessionaire(x_concessionaire_id: ActingHeader = None) -> str | None:
    return x_concessionaire_id or None


async def partner_concessionaire(x_concessionaire_id: PartnerHeader = None) -> str:
    if not x_concessionaire_id:
        raise ProblemError(
            "concessionaire_missing",
            "Partner calls carry the authenticated concessionaire in X-Concessionaire-Id.",
            status=401,
        )
    return x_concessionaire_id


Action = Callable[[AsyncSession], Awaitable[BaseModel]]
Posting = Callable[[AsyncSession], Awaitable[PostedOperation]]
Grouped = tuple[Any, Builder]
"""A command's request as the group commit takes it, and the builder of its operation (service/posting_batches.py)."""


@dataclass(frozen=True)
class CommandContext:
    services: Services
    scope: str
    key: str
    acting: str | None
    method: str
    path: str

    @property
    def concessionaire(self) -> str:
        """The partner's own id (partner commands always act for one)."""
        assert self.acting is not None, "a partner command without its concessionaire"
        return self.acting

    def fingerprint(self, body: BaseModel | None) -> str:
        return fingerprint(self.method, self.path, {} if body is None else body.model_dump(mode="json"))

    async def run(self, body: BaseModel | None, action: Action, *, status: int = 201) -> JSONResponse:
        """Run `action` once per idempotency key and answer with its result (or the first answer)."""

        async def command(session: AsyncSession) -> dict[str, Any]:
            return (await action(session)).model_dump(mode="json")

        outcome = await self.services.executor.run(self.scope, self.key, self.fingerprint(body), status, command)
        return keyed_answer(outcome.status, outcome.body, replayed=outcome.replayed)

    async def post_operation(self, body: BaseModel, posting: Posting) -> JSONResponse:
        """`run` for the money operations: `posting(session)` posts one, answered as an `OperationOut` (201)."""

        async def act(session: AsyncSession) -> OperationOut:
            return OperationOut.of(await posting(session))

        return await self.run(body, act)

    async def post_grouped(self, body: BaseModel, grouped: Grouped, posting: Posting) -> JSONResponse:
        """`post_operation` through the group commit (service/group_commit.py): in a batch, the operation is the
        one `grouped`'s builder makes of its request; a request the batch leaves alone runs `posting`."""
        request, builder = grouped
        keyed = KeyedPosting(
            self.scope, self.key, self.fingerprint(body), request, builder, self.acting, operation_body
        )

        async def alone(session: AsyncSession) -> dict[str, Any]:
            return operation_body(await posting(session))

        outcome = await self.services.group_commit.post(keyed, alone)
        return keyed_answer(outcome.status, outcome.body, replayed=outcome.replayed)


def operation_body(posted: PostedOperation) -> dict[str, Any]:
    """A posted operation's answer (201)."""
    return OperationOut.of(posted).model_dump(mode="json")


# Every command solves one of these two, and nothing below them: each reads its headers itself and calls the
# dependencies above as plain functions, rather than declaring them, as FastAPI solves each sub-dependency anew on
# every request (with two of them, solving a command's dependencies was 6.6 % of the
# wallet's CPU per command over HTTP: py-spy, issue 14). The key is the kit's header, checked by the kit's rules.
async def internal_command(
    request: Request, key: IdempotencyKeyHeader = None, x_concessionaire_id: ActingHeader = None
) -> CommandContext:
    checked = required_service_key(key)
    acting = await acting_concessionaire(x_concessionaire_id)
    services = await services_of(request)
    return CommandContext(services, INTERNAL_SCOPE, checked, acting, request.method, _operation_path(request))


async def partner_command(
    request: Request, key: IdempotencyKeyHeader = None, x_concessionaire_id: PartnerHeader = None
) -> CommandContext:
    """A concessionaire's keys live in their own scope: they can never collide with another caller's."""
    checked = required_key(key)
    concessionaire = await partner_concessionaire(x_concessionaire_id)
    services = await services_of(request)
    return CommandContext(
        services, f"partner:{concessionaire}", checked, concessionaire, request.method, _operation_path(request)
    )


def _operation_path(request: Request) -> str:
    """The path a command's fingerprint covers: the operation's, below the mount. A key recorded when the routes
    were under `/v1` still names the same request when it is sent again under `/internal/v1`, so a retry across
    the move learns its first answer instead of a 409 `idempotency_key_reused` (the money may have moved)."""
    return request.url.path.removeprefix(MOUNT)


@dataclass(frozen=True)
class Page:
    filters: StatementFilter
    cursor: tuple[int, str] | None
    limit: int


async def statement_page(
    kind: Annotated[OperationKind | None, Query(description="Only operations of this kind.")] = None,
    since: Annotated[datetime | None, Query(description="Transfers at or after this time.")] = None,
    until: Annotated[datetime | None, Query(description="Transfers before this time.")] = None,
    cursor: Annotated[str | None, Query(description="`next_cursor` of the previous page.")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Page:
    after = None
    if cursor is not None:
        try:
            after = parse_cursor(cursor)
        except ValueError:
            raise ProblemError("invalid_cursor", "The cursor is not one this API returned.", status=422) from None
    return Page(StatementFilter(None if kind is None else str(kind), since, until), after, limit)


Internal = Annotated[CommandContext, Depends(internal_command)]
Partner = Annotated[CommandContext, Depends(partner_command)]
ServicesDep = Annotated[Services, Depends(services_of)]
Acting = Annotated[str | None, Depends(acting_concessionaire)]
PartnerId = Annotated[str, Depends(partner_concessionaire)]
PageDep = Annotated[Page, Depends(statement_page)]
