"""What every route needs: the caller's authentication, its idempotency key, and the command runner."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Header, Query, Request
from fastapi.responses import JSONResponse
from platform_kit.app import runtime_of
from platform_kit.errors import PROBLEM_JSON, ProblemError
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.adapters.ledger import PostedOperation
from wallet.adapters.statements import StatementFilter, parse_cursor
from wallet.api.schemas import OperationOut
from wallet.domain.idempotency import MAX_KEY_LENGTH, fingerprint
from wallet.domain.operations import OperationKind
from wallet.service.idempotent import Outcome
from wallet.service.wallet import Wallet

INTERNAL_SCOPE = "internal"


# The dependencies are `async def` though they never wait: FastAPI runs a plain `def` dependency in a worker
# thread, a thread hop per dependency and request for nothing.
async def wallet_of(request: Request) -> Wallet:
    wallet: Wallet = request.app.state.wallet
    return wallet


async def require_internal_token(request: Request, x_internal_token: Annotated[str | None, Header()] = None) -> None:
    """Every wallet route is behind the platform's internal token: only services and the gateway call it."""
    expected = runtime_of(request).settings.internal_token
    if x_internal_token is None or not hmac.compare_digest(x_internal_token.encode(), expected.encode()):
        raise ProblemError("unauthorized", "A valid X-Internal-Token header is required.", status=401)


async def idempotency_key(idempotency_key: Annotated[str | None, Header()] = None) -> str:
    if not idempotency_key:
        raise ProblemError("idempotency_key_missing", "Every command carries an Idempotency-Key header.", status=400)
    if len(idempotency_key) > MAX_KEY_LENGTH:
        raise ProblemError(
            "idempotency_key_too_long", f"An Idempotency-Key has at most {MAX_KEY_LENGTH} characters.", status=400
        )
    return idempotency_key


async def acting_concessionaire(x_concessionaire_id: Annotated[str | None, Header()] = None) -> str | None:
    """On internal calls made for a concessionaire (e.g. a partner's buy-in relayed by the director), the
    wallet itself refuses to touch anything that is not that concessionaire's."""
    return x_concessionaire_id or None


async def partner_concessionaire(x_concessionaire_id: Annotated[str | None, Header()] = None) -> str:
    if not x_concessionaire_id:
        raise ProblemError(
            "concessionaire_missing",
            "Partner calls carry the authenticated concessionaire in X-Concessionaire-Id.",
            status=401,
        )
    return x_concessionaire_id


Action = Callable[[AsyncSession], Awaitable[BaseModel]]
Posting = Callable[[AsyncSession], Awaitable[PostedOperation]]


@dataclass(frozen=True)
class CommandContext:
    wallet: Wallet
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

    async def run(self, body: BaseModel | None, action: Action, *, status: int = 201) -> JSONResponse:
        """Run `action` once per idempotency key and answer with its result (or the first answer)."""
        request_fingerprint = fingerprint(self.method, self.path, {} if body is None else body.model_dump(mode="json"))

        async def command(session: AsyncSession) -> dict[str, object]:
            return (await action(session)).model_dump(mode="json")

        outcome = await self.wallet.executor.run(self.scope, self.key, request_fingerprint, status, command)
        return render(outcome)

    async def post_operation(self, body: BaseModel, posting: Posting) -> JSONResponse:
        """`run` for the money operations: `posting(session)` posts one, answered as an `OperationOut` (201)."""

        async def act(session: AsyncSession) -> OperationOut:
            return OperationOut.of(await posting(session))

        return await self.run(body, act)


def render(outcome: Outcome) -> JSONResponse:
    headers = {"Idempotent-Replayed": "true"} if outcome.replayed else None
    media_type = PROBLEM_JSON if outcome.status >= 400 else "application/json"
    return JSONResponse(outcome.body, status_code=outcome.status, headers=headers, media_type=media_type)


async def internal_command(
    request: Request,
    wallet: Annotated[Wallet, Depends(wallet_of)],
    key: Annotated[str, Depends(idempotency_key)],
    acting: Annotated[str | None, Depends(acting_concessionaire)],
) -> CommandContext:
    return CommandContext(wallet, INTERNAL_SCOPE, key, acting, request.method, request.url.path)


async def partner_command(
    request: Request,
    wallet: Annotated[Wallet, Depends(wallet_of)],
    key: Annotated[str, Depends(idempotency_key)],
    concessionaire: Annotated[str, Depends(partner_concessionaire)],
) -> CommandContext:
    """A concessionaire's keys live in their own scope: they can never collide with another caller's."""
    return CommandContext(wallet, f"partner:{concessionaire}", key, concessionaire, request.method, request.url.path)


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
WalletDep = Annotated[Wallet, Depends(wallet_of)]
Acting = Annotated[str | None, Depends(acting_concessionaire)]
PartnerId = Annotated[str, Depends(partner_concessionaire)]
PageDep = Annotated[Page, Depends(statement_page)]
