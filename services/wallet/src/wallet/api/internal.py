"""Routes for the platform's own services (tournament director, totalizator, gateway, operators' tools)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from platform_kit import wallet_operations as wo
from platform_kit.app import ReadingDep
from platform_kit.internal_api import require_internal_token
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.api.context import INTERNAL_SCOPE, MOUNT, Acting, CommandContext, Internal, PageDep, ServicesDep
from wallet.api.operations import Posted, declared, operation_routes
from wallet.api.schemas import (
    AccountOut,
    CurrencyOut,
    DrawPoolsOut,
    HoldOut,
    OperationOut,
    PlayerAccountsOut,
    ReconciliationOut,
    StatementOut,
    TaxBaseOut,
    TournamentLedgerOut,
)
from wallet.domain.accounts import AccountKind
from wallet.domain.currencies import CURRENCIES
from wallet.domain.idempotency import fingerprint
from wallet.domain.operations import OperationKind
from wallet.service.money import EntryRequest
from wallet.service.stake_batches import KeyedStake

router = APIRouter(prefix=f"{MOUNT}/v1", dependencies=[Depends(require_internal_token)])
posts = operation_routes(router)


# -- accounts -------------------------------------------------------------------------------------------------
@router.post(**declared(wo.OPEN_ACCOUNT, router), response_model=AccountOut)
async def open_player_account(player_id: str, body: wo.OpenAccountIn, command: Internal) -> JSONResponse:
    async def act(session: AsyncSession) -> AccountOut:
        account, _ = await command.services.money.open_player_account(
            session, player_id, body.concessionaire_id, body.currency
        )
        return AccountOut.of(await command.services.queries.account(session, account.id))

    return await command.run(body, act, status=wo.OPEN_ACCOUNT.status)


@router.get("/players/{player_id}/accounts", tags=["accounts"], response_model=PlayerAccountsOut)
async def player_accounts(
    player_id: str, services: ServicesDep, session: ReadingDep, acting: Acting
) -> PlayerAccountsOut:
    concessionaire, states = await services.queries.player_accounts(session, player_id, acting)
    return PlayerAccountsOut(
        player_id=player_id, concessionaire_id=concessionaire, accounts=[AccountOut.of(s) for s in states]
    )


@router.get("/accounts/{account_id}", tags=["accounts"], response_model=AccountOut)
async def account(account_id: int, services: ServicesDep, session: ReadingDep) -> AccountOut:
    return AccountOut.of(await services.queries.account(session, account_id))


@router.get("/accounts/{account_id}/statement", tags=["statements"], response_model=StatementOut)
async def account_statement(account_id: int, services: ServicesDep, session: ReadingDep, page: PageDep) -> StatementOut:
    found = await services.queries.account_statement(
        session, account_id, filters=page.filters, cursor=page.cursor, limit=page.limit
    )
    return StatementOut.of(found)


@router.get("/currencies", tags=["accounts"], response_model=list[CurrencyOut])
async def currencies() -> list[CurrencyOut]:
    return [CurrencyOut.of(currency) for currency in CURRENCIES.values()]


# -- tournaments ----------------------------------------------------------------------------------------------
def _entry(command: CommandContext, body: wo.EntryIn, tournament_id: str) -> EntryRequest:
    return EntryRequest(
        OperationKind(body.kind),
        tournament_id,
        body.player_id,
        body.currency,
        body.prize_part,
        body.fee,
        body.jackpot_contribution,
        command.acting,
    )


@posts(
    wo.PAID_ENTRY,
    grouped=lambda command, body, **ids: (_entry(command, body, **ids), command.services.money.entry_operations),
)
async def paid_entry(command: CommandContext, session: AsyncSession, body: wo.EntryIn, tournament_id: str) -> Posted:
    return await command.services.money.paid_entry(session, _entry(command, body, tournament_id))


@posts(wo.SATELLITE_ENTRY)
async def satellite_entry(
    command: CommandContext, session: AsyncSession, body: wo.SatelliteEntryIn, tournament_id: str
) -> Posted:
    return await command.services.money.satellite_entry(
        session,
        tournament_id=tournament_id,
        satellite_id=body.satellite_tournament_id,
        player_id=body.player_id,
        currency=body.currency,
        prize_part=body.prize_part,
        fee=body.fee,
        acting=command.acting,
    )


@posts(wo.SPONSORED_ENTRY)
async def sponsored_entry(
    command: CommandContext, session: AsyncSession, body: wo.SponsoredEntryIn, tournament_id: str
) -> Posted:
    return await command.services.money.sponsored_entry(
        session,
        tournament_id=tournament_id,
        player_id=body.player_id,
        concessionaire_id=body.concessionaire_id,
        currency=body.currency,
        amount=body.amount,
        fee=body.fee,
        acting=command.acting,
    )


@posts(wo.OVERLAY)
async def overlay(command: CommandContext, session: AsyncSession, body: wo.OverlayIn, tournament_id: str) -> Posted:
    kind = OperationKind.GUARANTEE_OVERLAY if body.cause == "guarantee" else OperationKind.CANCELLATION_OVERLAY
    return await command.services.money.overlay(
        session,
        kind,
        tournament_id=tournament_id,
        concessionaire_id=body.concessionaire_id,
        currency=body.currency,
        amount=body.amount,
        acting=command.acting,
    )


@posts(wo.PRIZE_PAYOUTS)
async def prize_payouts(
    command: CommandContext, session: AsyncSession, body: wo.PayoutsIn, tournament_id: str
) -> Posted:
    payouts = [(p.player_id, p.amount) for p in body.payouts]
    return await command.services.money.prize_payouts(
        session, tournament_id=tournament_id, currency=body.currency, payouts=payouts
    )


@posts(wo.BONUS_PRIZES)
async def bonus_prizes(
    command: CommandContext, session: AsyncSession, body: wo.BonusPrizesIn, tournament_id: str
) -> Posted:
    return await command.services.money.bonus_prizes(
        session,
        tournament_id=tournament_id,
        concessionaire_id=body.concessionaire_id,
        currency=body.currency,
        prizes=[(p.player_id, p.amount) for p in body.prizes],
        acting=command.acting,
    )


@posts(wo.REFUNDS)
async def refunds(command: CommandContext, session: AsyncSession, body: wo.RefundsIn, tournament_id: str) -> Posted:
    items = [(r.player_id, r.prize_part, r.fee) for r in body.refunds]
    return await command.services.money.refunds(
        session, tournament_id=tournament_id, currency=body.currency, items=items
    )


@posts(wo.TAX_ACCRUAL)
async def tax_accrual(
    command: CommandContext, session: AsyncSession, body: wo.TaxAccrualIn, tournament_id: str
) -> Posted:
    return await command.services.money.tax_accrual(
        session,
        concessionaire_id=body.concessionaire_id,
        tournament_id=tournament_id,
        currency=body.currency,
        amount=body.amount,
    )


@router.get("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentLedgerOut)
async def tournament_ledger(tournament_id: str, services: ServicesDep, session: ReadingDep) -> TournamentLedgerOut:
    """The tournament's escrow (its prize pool) and its tax base per concessionaire (P-8.2, P-8.7)."""
    escrow, base = await services.queries.tournament(session, tournament_id)
    return TournamentLedgerOut(
        tournament_id=tournament_id,
        escrow=None if escrow is None else AccountOut.of(escrow),
        tax_base=[TaxBaseOut.of(line) for line in base],
    )


@posts(wo.JACKPOT_AWARD)
async def jackpot_award(
    command: CommandContext, session: AsyncSession, body: wo.JackpotAwardIn, concessionaire_id: str
) -> Posted:
    return await command.services.money.jackpot_award(
        session,
        concessionaire_id=concessionaire_id,
        player_id=body.player_id,
        currency=body.currency,
        amount=body.amount,
    )


# -- totalizator ----------------------------------------------------------------------------------------------
@posts(wo.STAKE)
async def stake(command: CommandContext, session: AsyncSession, body: wo.StakeIn, draw_id: str) -> Posted:
    return await command.services.money.stake(
        session,
        draw_id=draw_id,
        player_id=body.player_id,
        currency=body.currency,
        amount=body.amount,
        coupon_id=body.coupon_id,
        acting=command.acting,
    )


@router.post(**declared(wo.STAKE_BATCH, router), response_model=wo.StakeBatchOut)
async def stake_batch(draw_id: str, body: wo.StakeBatchIn, services: ServicesDep, acting: Acting) -> wo.StakeBatchOut:
    # Each stake is the request a single stake with its key is: the same fingerprint, so either replays the other.
    single = wo.STAKE.path.format(draw_id=draw_id).removeprefix(MOUNT)
    stakes = [
        KeyedStake(
            s.key,
            fingerprint("POST", single, s.model_dump(mode="json", exclude={"key"})),
            s.player_id,
            s.currency,
            s.amount,
            s.coupon_id,
        )
        for s in body.stakes
    ]
    answers = await services.stake_batches.run(
        INTERNAL_SCOPE, draw_id, stakes, acting, lambda posted: OperationOut.of(posted).model_dump(mode="json")
    )
    return wo.StakeBatchOut(
        answers=[
            wo.StakeAnswerOut(key=s.key, status=status, body=answer)
            for s, (status, answer) in zip(stakes, answers, strict=True)
        ]
    )


@posts(wo.DRAW_PAYOUTS)
async def draw_payouts(command: CommandContext, session: AsyncSession, body: wo.DrawPaymentsIn, draw_id: str) -> Posted:
    return await _draw_payments(OperationKind.DRAW_PAYOUT, command, session, body, draw_id)


@posts(wo.DRAW_REFUNDS)
async def draw_refunds(command: CommandContext, session: AsyncSession, body: wo.DrawPaymentsIn, draw_id: str) -> Posted:
    return await _draw_payments(OperationKind.DRAW_REFUND, command, session, body, draw_id)


async def _draw_payments(
    kind: OperationKind, command: CommandContext, session: AsyncSession, body: wo.DrawPaymentsIn, draw_id: str
) -> Posted:
    payments = [(p.player_id, p.amount) for p in body.payments]
    return await command.services.money.draw_payments(
        session, kind, draw_id=draw_id, currency=body.currency, payments=payments
    )


@posts(wo.ORGANIZER_TRANSFER)
async def organizer_transfer(
    command: CommandContext, session: AsyncSession, body: wo.OrganizerTransferIn, draw_id: str
) -> Posted:
    return await command.services.money.organizer_transfer(
        session, OperationKind(body.kind), draw_id=draw_id, currency=body.currency, amount=body.amount
    )


@router.get("/draws/{draw_id}", tags=["totalizator"], response_model=DrawPoolsOut)
async def draw_pools(draw_id: str, services: ServicesDep, session: ReadingDep) -> DrawPoolsOut:
    pools = await services.queries.draw_pools(session, draw_id)
    return DrawPoolsOut(draw_id=draw_id, pools=[AccountOut.of(pool) for pool in pools])


# -- holds ----------------------------------------------------------------------------------------------------
@router.post(**declared(wo.CREATE_HOLD, router), response_model=HoldOut)
async def create_hold(body: wo.HoldIn, command: Internal) -> JSONResponse:
    async def act(session: AsyncSession) -> HoldOut:
        ttl = command.services.default_hold_ttl if body.ttl_seconds is None else timedelta(seconds=body.ttl_seconds)
        hold = await command.services.holds.create(
            session,
            player_id=body.player_id,
            currency=body.currency,
            amount=body.amount,
            destination_kind=AccountKind(body.destination.kind),
            destination_owner=body.destination.owner,
            ttl=ttl,
            reference=body.reference,
            acting=command.acting,
        )
        return HoldOut.of(hold)

    return await command.run(body, act, status=wo.CREATE_HOLD.status)


@router.post(**declared(wo.POST_HOLD, router), response_model=HoldOut)
async def post_hold(hold_id: int, command: Internal, body: wo.HoldPostIn | None = None) -> JSONResponse:
    request = body or wo.HoldPostIn()  # no body and `{}` are the same request

    async def act(session: AsyncSession) -> HoldOut:
        hold, _ = await command.services.holds.post(session, hold_id, request.amount, command.acting)
        return HoldOut.of(hold)

    return await command.run(request, act, status=wo.POST_HOLD.status)


@router.post(**declared(wo.VOID_HOLD, router), response_model=HoldOut)
async def void_hold(hold_id: int, command: Internal) -> JSONResponse:
    async def act(session: AsyncSession) -> HoldOut:
        return HoldOut.of(await command.services.holds.void(session, hold_id, command.acting))

    return await command.run(None, act, status=wo.VOID_HOLD.status)


@router.get("/holds/{hold_id}", tags=["holds"], response_model=HoldOut)
async def get_hold(hold_id: int, services: ServicesDep, session: ReadingDep, acting: Acting) -> HoldOut:
    return HoldOut.of(await services.holds.get(session, hold_id, acting))


# -- operations and reconciliation --------------------------------------------------------------------------
@router.get("/operations/{operation_id}", tags=["operations"], response_model=OperationOut)
async def operation(operation_id: int, services: ServicesDep, session: ReadingDep, acting: Acting) -> OperationOut:
    return OperationOut.of(await services.queries.operation(session, operation_id, acting))


@router.post(**declared(wo.REVERSAL, router), response_model=OperationOut)
async def reverse(operation_id: int, body: wo.ReversalIn, command: Internal) -> JSONResponse:
    return await command.post_operation(
        body, lambda session: command.services.money.reverse(session, operation_id, body.reason, command.acting)
    )


@router.get("/reconciliation", tags=["operations"], response_model=ReconciliationOut)
async def reconciliation(
    services: ServicesDep,
    concessionaire_id: Annotated[
        str | None,
        Query(
            max_length=100,
            description="Only this concessionaire's accounts (and its players') are checked "
            "for drift; the sum of balances stays the whole ledger's.",
        ),
    ] = None,
) -> ReconciliationOut:
    """Per currency: all balances sum to zero, every balance equals its entries, every held amount its holds."""
    if concessionaire_id is None:
        return ReconciliationOut.of(await services.reconciler.check())
    return ReconciliationOut.of(await services.reconciler.check_concessionaire(concessionaire_id))
