"""Accounts and statements, relayed to the wallet: a player's own; the concessionaire's cashier (deposits and
withdrawals reported by its operator or partner system); the concessionaire's own accounts and funding.

Every call on a player's money acts for the player's concessionaire (`X-Concessionaire-Id`), so the wallet
itself refuses anything outside it. Money moves carry the client's Idempotency-Key.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from fastapi.responses import JSONResponse
from platform_kit.idempotency import IdempotencyKey

from gateway.adapters.service_client import DownstreamProblem
from gateway.api.access import PlayerInScope, allow, allow_on_player
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import (
    ACCOUNTS,
    OPERATION,
    STATEMENT,
    AccountOpening,
    CashMovement,
    Funding,
    answers,
)
from gateway.api.v1.time_queries import TimePeriod
from gateway.domain.roles import Principal, Role
from gateway.service.access import require_manages
from gateway.service.wallet_accounts import CONCESSIONAIRE_HEADER, WalletAccounts, acting_for

router = APIRouter(prefix=API_V1, tags=["accounts"], responses=RELAYED)

OnPlayer = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Cashier = Annotated[PlayerInScope, Depends(allow_on_player(Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Manager = Annotated[Principal, Depends(allow(Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Anyone = Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]

UNKNOWN_ACCOUNT = "unknown_account"
# It travels in the X-Concessionaire-Id header to the wallet: the alphabet of the gateway's ids.
ConcessionaireId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
OperationKind = Annotated[str | None, Query(max_length=40, description="Only operations of this kind, e.g. `stake`.")]
Cursor = Annotated[str | None, Query(max_length=200, description="`next_cursor` of the previous page.")]
Limit = Annotated[int, Query(ge=1, le=500)]
Currency = Annotated[str | None, Query(pattern=r"^[A-Z]{3}$")]


async def _statement_query(
    period: TimePeriod, currency: Currency = None, kind: OperationKind = None, cursor: Cursor = None, limit: Limit = 100
) -> dict[str, Any]:
    """A statement's filters and page, as the wallet's statements take them."""
    return {
        "currency": currency,
        "kind": kind,
        "since": period.since,
        "until": period.until,
        "cursor": cursor,
        "limit": limit,
    }


StatementQuery = Annotated[dict[str, Any], Depends(_statement_query)]


def _wallet_accounts(request: Request) -> WalletAccounts:
    return WalletAccounts(clients_of(request).wallet)


@router.get("/currencies", summary="The currencies the wallet keeps, with their minor units")
async def currencies(request: Request, _: Anyone) -> Response:
    return await relay(clients_of(request).wallet, "GET", "/internal/v1/currencies")


# -- a player's accounts ----------------------------------------------------------------------------------------
@router.get("/players/{player_id}/accounts", summary="The player's accounts and balances", responses=answers(ACCOUNTS))
async def accounts(request: Request, scope: OnPlayer) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/accounts"
    try:
        return await relay(
            clients_of(request).wallet, "GET", path, principal=scope.principal, headers=acting_for(scope.player)
        )
    except DownstreamProblem as problem:
        if problem.body.get("code") != UNKNOWN_ACCOUNT:
            raise
    # No money has reached the player yet: no account, which is not an error for the player.
    empty = {"player_id": scope.player.id, "concessionaire_id": scope.player.concessionaire_id, "accounts": []}
    return _json(empty)


@router.post(
    "/players/{player_id}/accounts",
    status_code=status.HTTP_201_CREATED,
    summary="Open the player's account in a currency (their concessionaire's staff or partner system)",
)
async def open_account(scope: Cashier, body: AccountOpening, request: Request) -> Response:
    answer = await _wallet_accounts(request).open(scope.player, body.currency, scope.principal)
    return Response(answer.content, status_code=answer.status_code, media_type=answer.headers.get("content-type"))


@router.get(
    "/players/{player_id}/statement",
    summary="The player's statement, newest first (paged)",
    responses=answers(STATEMENT),
)
async def statement(request: Request, scope: OnPlayer, query: StatementQuery) -> Response:
    path = f"/internal/v1/partner/players/{segment(scope.player.id)}/statement"
    try:
        return await relay(
            clients_of(request).wallet,
            "GET",
            path,
            principal=scope.principal,
            params=query,
            headers=acting_for(scope.player),
        )
    except DownstreamProblem as problem:
        if problem.body.get("code") != UNKNOWN_ACCOUNT:
            raise
    return _json({"items": [], "next_cursor": None})


@router.post(
    "/players/{player_id}/deposits",
    status_code=status.HTTP_201_CREATED,
    summary="Report money the player paid in at your cashier",
    responses=answers(OPERATION, status=201),
)
async def deposit(scope: Cashier, body: CashMovement, request: Request, key: IdempotencyKey) -> Response:
    answer = await _wallet_accounts(request).deposit(
        scope.player, body.currency, body.amount, reference=body.reference, key=key, by=scope.principal
    )
    return Response(answer.content, status_code=answer.status_code, media_type=answer.headers.get("content-type"))


@router.post(
    "/players/{player_id}/withdrawals",
    status_code=status.HTTP_201_CREATED,
    summary="Report money the player takes out at your cashier (refused beyond the available balance)",
    responses=answers(OPERATION, status=201),
)
async def withdrawal(scope: Cashier, body: CashMovement, request: Request, key: IdempotencyKey) -> Response:
    path = f"/internal/v1/partner/players/{segment(scope.player.id)}/withdrawals"
    return await relay(
        clients_of(request).wallet,
        "POST",
        path,
        principal=scope.principal,
        json=body.model_dump(),
        key=key,
        headers=acting_for(scope.player),
    )


# -- the concessionaire's own accounts ----------------------------------------------------------------------------
@router.get("/concessionaires/{concessionaire_id}/accounts", summary="The concessionaire's own accounts")
async def own_accounts(
    concessionaire_id: ConcessionaireId,
    request: Request,
    principal: Manager,
    currency: Currency = None,
) -> Response:
    require_manages(principal, concessionaire_id)
    return await relay(
        clients_of(request).wallet,
        "GET",
        "/internal/v1/partner/accounts",
        principal=principal,
        params={"currency": currency},
        headers={CONCESSIONAIRE_HEADER: concessionaire_id},
    )


@router.get("/concessionaires/{concessionaire_id}/statement", summary="The concessionaire's own statement")
async def own_statement(
    concessionaire_id: ConcessionaireId,
    request: Request,
    principal: Manager,
    query: StatementQuery,
    account_kind: Annotated[Literal["cash", "margin", "sponsorship", "jackpot_fund", "tax"] | None, Query()] = None,
) -> Response:
    require_manages(principal, concessionaire_id)
    return await relay(
        clients_of(request).wallet,
        "GET",
        "/internal/v1/partner/statement",
        principal=principal,
        params={"account_kind": account_kind, **query},
        headers={CONCESSIONAIRE_HEADER: concessionaire_id},
    )


@router.post(
    "/concessionaires/{concessionaire_id}/funding",
    status_code=status.HTTP_201_CREATED,
    summary="Fund the sponsorship account (overlays, sponsored entries) or the jackpot fund",
    responses=answers(OPERATION, status=201),
)
async def funding(
    concessionaire_id: ConcessionaireId, body: Funding, request: Request, principal: Manager, key: IdempotencyKey
) -> Response:
    require_manages(principal, concessionaire_id)
    return await relay(
        clients_of(request).wallet,
        "POST",
        "/internal/v1/partner/funding",
        principal=principal,
        json=body.model_dump(),
        key=key,
        headers={CONCESSIONAIRE_HEADER: concessionaire_id},
    )


def _json(body: object) -> Response:
    return JSONResponse(body)
