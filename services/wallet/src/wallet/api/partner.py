"""Routes for concessionaires, through the gateway (which authenticates the partner's API key and passes its
id in `X-Concessionaire-Id`). A concessionaire sees and moves only its own players' money and its own
accounts; the cashier itself stays with the concessionaire, which reports deposits and withdrawals here."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from platform_kit import wallet_operations as wo
from platform_kit.app import ReadingDep, UnitOfWorkDep
from platform_kit.internal_api import require_internal_token
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.api.context import MOUNT, PageDep, Partner, PartnerId, ServicesDep
from wallet.api.schemas import (
    AccountOut,
    CashIn,
    ConcessionaireAccountsOut,
    CurrencyCode,
    FundingIn,
    OperationOut,
    PartnerOpenAccountIn,
    PlayerAccountsOut,
    StatementOut,
)
from wallet.domain.accounts import AccountKind
from wallet.domain.operations import OperationKind
from wallet.service.money import CashRequest

router = APIRouter(prefix=f"{MOUNT}/v1/partner", tags=["partner"], dependencies=[Depends(require_internal_token)])


@router.post("/players/{player_id}/accounts", response_model=AccountOut, status_code=201)
async def open_account(player_id: str, body: PartnerOpenAccountIn, command: Partner) -> JSONResponse:
    """Register one of the concessionaire's players (refused if it is another's) and open an account."""

    async def act(session: AsyncSession) -> AccountOut:
        account, _ = await command.services.money.open_player_account(
            session, player_id, command.concessionaire, body.currency
        )
        return AccountOut.of(await command.services.queries.account(session, account.id))

    return await command.run(body, act)


@router.get("/players/{player_id}/accounts", response_model=PlayerAccountsOut)
async def player_accounts(
    player_id: str, services: ServicesDep, session: ReadingDep, concessionaire: PartnerId
) -> PlayerAccountsOut:
    owner, states = await services.queries.player_accounts(session, player_id, concessionaire)
    return PlayerAccountsOut(player_id=player_id, concessionaire_id=owner, accounts=[AccountOut.of(s) for s in states])


@router.post("/players/{player_id}/deposits", response_model=OperationOut, status_code=201)
async def deposit(player_id: str, body: CashIn, command: Partner) -> JSONResponse:
    """Money the player paid in at the concessionaire's cashier: from the concessionaire's cash account."""
    return await _cash(OperationKind.DEPOSIT, player_id, body, command)


@router.post("/players/{player_id}/withdrawals", response_model=OperationOut, status_code=201)
async def withdrawal(player_id: str, body: CashIn, command: Partner) -> JSONResponse:
    """Money the player takes out through the concessionaire's cashier; refused beyond the available balance."""
    return await _cash(OperationKind.WITHDRAWAL, player_id, body, command)


async def _cash(kind: OperationKind, player_id: str, body: CashIn, command: Partner) -> JSONResponse:
    money = command.services.money
    request = CashRequest(kind, command.concessionaire, player_id, body.currency, body.amount, body.reference)
    return await command.post_grouped(
        body, (request, money.cash_operations), lambda session: money.cash(session, request)
    )


@router.get("/players/{player_id}/statement", response_model=StatementOut)
async def player_statement(
    player_id: str,
    services: ServicesDep,
    uow: UnitOfWorkDep,
    concessionaire: PartnerId,
    page: PageDep,
    currency: Annotated[CurrencyCode | None, Query()] = None,
) -> StatementOut:
    found = await services.queries.player_statement(
        uow.session,
        player_id,
        currency=currency,
        filters=page.filters,
        cursor=page.cursor,
        limit=page.limit,
        acting=concessionaire,
    )
    return StatementOut.of(found)


@router.post("/funding", response_model=OperationOut, status_code=201)
async def funding(body: FundingIn, command: Partner) -> JSONResponse:
    """The concessionaire's own money into its sponsorship account (overlays, sponsored entries) or its
    jackpot fund."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.fund(
            session, command.concessionaire, AccountKind(body.account_kind), body.currency, body.amount, body.reference
        ),
    )


@router.get("/accounts", response_model=ConcessionaireAccountsOut)
async def own_accounts(
    services: ServicesDep,
    session: ReadingDep,
    concessionaire: PartnerId,
    currency: Annotated[CurrencyCode | None, Query()] = None,
) -> ConcessionaireAccountsOut:
    """Cash, margin, sponsorship, jackpot fund and tax accounts of the concessionaire."""
    states = await services.queries.concessionaire_accounts(session, concessionaire, currency)
    return ConcessionaireAccountsOut(concessionaire_id=concessionaire, accounts=[AccountOut.of(s) for s in states])


@router.get("/statement", response_model=StatementOut)
async def own_statement(
    services: ServicesDep,
    uow: UnitOfWorkDep,
    concessionaire: PartnerId,
    page: PageDep,
    account_kind: Annotated[
        wo.AccountKind | None, Query(description="One of the concessionaire's account kinds.")
    ] = None,
    currency: Annotated[CurrencyCode | None, Query()] = None,
) -> StatementOut:
    found = await services.queries.concessionaire_statement(
        uow.session,
        concessionaire,
        account_kind=None if account_kind is None else AccountKind(account_kind),
        currency=currency,
        filters=page.filters,
        cursor=page.cursor,
        limit=page.limit,
    )
    return StatementOut.of(found)
