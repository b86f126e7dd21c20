"""Routes for the platform's own services (tournament director, totalizator, gateway, operators' tools)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from platform_kit.internal_api import require_internal_token
from sqlalchemy.ext.asyncio import AsyncSession

from wallet.api.context import MOUNT, Acting, Internal, PageDep, ServicesDep
from wallet.api.schemas import (
    AccountOut,
    BonusPrizesIn,
    CurrencyOut,
    DrawPaymentsIn,
    DrawPoolsOut,
    EntryIn,
    HoldIn,
    HoldOut,
    HoldPostIn,
    JackpotAwardIn,
    OpenAccountIn,
    OperationOut,
    OrganizerTransferIn,
    OverlayIn,
    PayoutsIn,
    PlayerAccountsOut,
    ReconciliationOut,
    RefundsIn,
    ReversalIn,
    SatelliteEntryIn,
    SponsoredEntryIn,
    StakeIn,
    StatementOut,
    TaxAccrualIn,
    TaxBaseOut,
    TournamentLedgerOut,
)
from wallet.domain.currencies import CURRENCIES
from wallet.domain.operations import OperationKind

router = APIRouter(prefix=f"{MOUNT}/v1", dependencies=[Depends(require_internal_token)])
OPERATION: dict[str, Any] = {"response_model": OperationOut, "status_code": 201}


# -- accounts -------------------------------------------------------------------------------------------------
@router.post("/players/{player_id}/accounts", tags=["accounts"], response_model=AccountOut, status_code=201)
async def open_player_account(player_id: str, body: OpenAccountIn, command: Internal) -> JSONResponse:
    """Register the player with its concessionaire (once, for good) and open its account in `currency`."""

    async def act(session: AsyncSession) -> AccountOut:
        account, _ = await command.services.money.open_player_account(
            session, player_id, body.concessionaire_id, body.currency
        )
        return AccountOut.of(await command.services.queries.account(session, account.id))

    return await command.run(body, act)


@router.get("/players/{player_id}/accounts", tags=["accounts"], response_model=PlayerAccountsOut)
async def player_accounts(player_id: str, services: ServicesDep, acting: Acting) -> PlayerAccountsOut:
    async with services.runtime.db.sessions() as session:
        concessionaire, states = await services.queries.player_accounts(session, player_id, acting)
    return PlayerAccountsOut(
        player_id=player_id, concessionaire_id=concessionaire, accounts=[AccountOut.of(s) for s in states]
    )


@router.get("/accounts/{account_id}", tags=["accounts"], response_model=AccountOut)
async def account(account_id: int, services: ServicesDep) -> AccountOut:
    async with services.runtime.db.sessions() as session:
        return AccountOut.of(await services.queries.account(session, account_id))


@router.get("/accounts/{account_id}/statement", tags=["statements"], response_model=StatementOut)
async def account_statement(account_id: int, services: ServicesDep, page: PageDep) -> StatementOut:
    async with services.runtime.db.sessions() as session:
        found = await services.queries.account_statement(
            session, account_id, filters=page.filters, cursor=page.cursor, limit=page.limit
        )
    return StatementOut.of(found)


@router.get("/currencies", tags=["accounts"], response_model=list[CurrencyOut])
async def currencies() -> list[CurrencyOut]:
    return [CurrencyOut.of(currency) for currency in CURRENCIES.values()]


# -- tournaments ----------------------------------------------------------------------------------------------
@router.post("/tournaments/{tournament_id}/entries", tags=["tournaments"], **OPERATION)
async def paid_entry(tournament_id: str, body: EntryIn, command: Internal) -> JSONResponse:
    """Buy-in, rebuy or add-on (P-8.1, P-4.4): prize part to the escrow, fee to the player's concessionaire's
    margin (less `jackpot_contribution`, to its jackpot fund, P-8.6); the price is recorded as tax base (P-8.7)."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.paid_entry(
            session,
            OperationKind(body.kind),
            tournament_id=tournament_id,
            player_id=body.player_id,
            currency=body.currency,
            prize_part=body.prize_part,
            fee=body.fee,
            jackpot_contribution=body.jackpot_contribution,
            acting=command.acting,
        ),
    )


@router.post("/tournaments/{tournament_id}/satellite-entries", tags=["tournaments"], **OPERATION)
async def satellite_entry(tournament_id: str, body: SatelliteEntryIn, command: Internal) -> JSONResponse:
    """P-3.4: a qualified player's entry, paid from the satellite's escrow, counted as a paid buy-in."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.satellite_entry(
            session,
            tournament_id=tournament_id,
            satellite_id=body.satellite_tournament_id,
            player_id=body.player_id,
            currency=body.currency,
            prize_part=body.prize_part,
            fee=body.fee,
            acting=command.acting,
        ),
    )


@router.post("/tournaments/{tournament_id}/sponsored-entries", tags=["tournaments"], **OPERATION)
async def sponsored_entry(tournament_id: str, body: SponsoredEntryIn, command: Internal) -> JSONResponse:
    """P-9.2: the concessionaire buys a freeroll player's entry from its sponsorship account; the whole entry
    (`amount` + `fee`) is recorded as tax base (P-8.7)."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.sponsored_entry(
            session,
            tournament_id=tournament_id,
            player_id=body.player_id,
            concessionaire_id=body.concessionaire_id,
            currency=body.currency,
            amount=body.amount,
            fee=body.fee,
            acting=command.acting,
        ),
    )


@router.post("/tournaments/{tournament_id}/overlays", tags=["tournaments"], **OPERATION)
async def overlay(tournament_id: str, body: OverlayIn, command: Internal) -> JSONResponse:
    """P-8.3 guarantee overlay or P-10.11 cancellation overlay, from the concessionaire's sponsorship account."""
    kind = OperationKind.GUARANTEE_OVERLAY if body.cause == "guarantee" else OperationKind.CANCELLATION_OVERLAY

    return await command.post_operation(
        body,
        lambda session: command.services.money.overlay(
            session,
            kind,
            tournament_id=tournament_id,
            concessionaire_id=body.concessionaire_id,
            currency=body.currency,
            amount=body.amount,
            acting=command.acting,
        ),
    )


@router.post("/tournaments/{tournament_id}/payouts", tags=["tournaments"], **OPERATION)
async def prize_payouts(tournament_id: str, body: PayoutsIn, command: Internal) -> JSONResponse:
    """Prizes (P-8.4, P-8.5) from the escrow, all in one operation; refused if the escrow cannot cover them."""
    payouts = [(p.player_id, p.amount) for p in body.payouts]
    return await command.post_operation(
        body,
        lambda session: command.services.money.prize_payouts(
            session, tournament_id=tournament_id, currency=body.currency, payouts=payouts
        ),
    )


@router.post("/tournaments/{tournament_id}/bonus-prizes", tags=["tournaments"], **OPERATION)
async def bonus_prizes(tournament_id: str, body: BonusPrizesIn, command: Internal) -> JSONResponse:
    """P-9.3: a bonus freeroll's prizes (P-9.1: offered by the concessionaire), all in one operation, from its
    sponsorship account to each winner's bonus account (not withdrawable, no tax base); one prize per player."""
    prizes = [(p.player_id, p.amount) for p in body.prizes]
    return await command.post_operation(
        body,
        lambda session: command.services.money.bonus_prizes(
            session,
            tournament_id=tournament_id,
            concessionaire_id=body.concessionaire_id,
            currency=body.currency,
            prizes=prizes,
            acting=command.acting,
        ),
    )


@router.post("/tournaments/{tournament_id}/refunds", tags=["tournaments"], **OPERATION)
async def refunds(tournament_id: str, body: RefundsIn, command: Internal) -> JSONResponse:
    """P-10.10: the full price back, prize part from the escrow and fee from the concessionaire's margin."""
    items = [(r.player_id, r.prize_part, r.fee) for r in body.refunds]
    return await command.post_operation(
        body,
        lambda session: command.services.money.refunds(
            session, tournament_id=tournament_id, currency=body.currency, items=items
        ),
    )


@router.post("/tournaments/{tournament_id}/tax-accruals", tags=["tournaments"], **OPERATION)
async def tax_accrual(tournament_id: str, body: TaxAccrualIn, command: Internal) -> JSONResponse:
    """P-8.7: set the tax due on the tournament's base aside, from the concessionaire's margin."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.tax_accrual(
            session,
            concessionaire_id=body.concessionaire_id,
            tournament_id=tournament_id,
            currency=body.currency,
            amount=body.amount,
        ),
    )


@router.get("/tournaments/{tournament_id}", tags=["tournaments"], response_model=TournamentLedgerOut)
async def tournament_ledger(tournament_id: str, services: ServicesDep) -> TournamentLedgerOut:
    """The tournament's escrow (its prize pool) and its tax base per concessionaire (P-8.2, P-8.7)."""
    async with services.runtime.db.sessions() as session:
        escrow, base = await services.queries.tournament(session, tournament_id)
    return TournamentLedgerOut(
        tournament_id=tournament_id,
        escrow=None if escrow is None else AccountOut.of(escrow),
        tax_base=[TaxBaseOut.of(line) for line in base],
    )


@router.post("/jackpots/{concessionaire_id}/awards", tags=["tournaments"], **OPERATION)
async def jackpot_award(concessionaire_id: str, body: JackpotAwardIn, command: Internal) -> JSONResponse:
    """P-8.6: pay a progressive jackpot from the concessionaire's jackpot fund."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.jackpot_award(
            session,
            concessionaire_id=concessionaire_id,
            player_id=body.player_id,
            currency=body.currency,
            amount=body.amount,
        ),
    )


# -- totalizator ----------------------------------------------------------------------------------------------
@router.post("/draws/{draw_id}/stakes", tags=["totalizator"], **OPERATION)
async def stake(draw_id: str, body: StakeIn, command: Internal) -> JSONResponse:
    return await command.post_operation(
        body,
        lambda session: command.services.money.stake(
            session,
            draw_id=draw_id,
            player_id=body.player_id,
            currency=body.currency,
            amount=body.amount,
            coupon_id=body.coupon_id,
            acting=command.acting,
        ),
    )


@router.post("/draws/{draw_id}/payouts", tags=["totalizator"], **OPERATION)
async def draw_payouts(draw_id: str, body: DrawPaymentsIn, command: Internal) -> JSONResponse:
    """T-6: winning coupons' payouts from the draw's pool in their currency."""
    return await _draw_payments(OperationKind.DRAW_PAYOUT, draw_id, body, command)


@router.post("/draws/{draw_id}/refunds", tags=["totalizator"], **OPERATION)
async def draw_refunds(draw_id: str, body: DrawPaymentsIn, command: Internal) -> JSONResponse:
    """T-5.5: stakes back from the draw's pool."""
    return await _draw_payments(OperationKind.DRAW_REFUND, draw_id, body, command)


async def _draw_payments(kind: OperationKind, draw_id: str, body: DrawPaymentsIn, command: Internal) -> JSONResponse:
    payments = [(p.player_id, p.amount) for p in body.payments]
    return await command.post_operation(
        body,
        lambda session: command.services.money.draw_payments(
            session, kind, draw_id=draw_id, currency=body.currency, payments=payments
        ),
    )


@router.post("/draws/{draw_id}/organizer-transfers", tags=["totalizator"], **OPERATION)
async def organizer_transfer(draw_id: str, body: OrganizerTransferIn, command: Internal) -> JSONResponse:
    """Between the draw's pool and the network: organizer share (T-1.1), top-up (T-6.2, T-4.4), rounding
    remainder (T-6.3), jackpot carry and release (T-3.2, T-4)."""
    return await command.post_operation(
        body,
        lambda session: command.services.money.organizer_transfer(
            session, OperationKind(body.kind), draw_id=draw_id, currency=body.currency, amount=body.amount
        ),
    )


@router.get("/draws/{draw_id}", tags=["totalizator"], response_model=DrawPoolsOut)
async def draw_pools(draw_id: str, services: ServicesDep) -> DrawPoolsOut:
    async with services.runtime.db.sessions() as session:
        pools = await services.queries.draw_pools(session, draw_id)
    return DrawPoolsOut(draw_id=draw_id, pools=[AccountOut.of(pool) for pool in pools])


# -- holds ----------------------------------------------------------------------------------------------------
@router.post("/holds", tags=["holds"], response_model=HoldOut, status_code=201)
async def create_hold(body: HoldIn, command: Internal) -> JSONResponse:
    """Reserve money on a player's account for a platform account (escrow, pool …); post or void it later.
    Unresolved at `ttl_seconds` (default: the service setting) it expires and is released."""

    async def act(session: AsyncSession) -> HoldOut:
        ttl = command.services.default_hold_ttl if body.ttl_seconds is None else timedelta(seconds=body.ttl_seconds)
        hold = await command.services.holds.create(
            session,
            player_id=body.player_id,
            currency=body.currency,
            amount=body.amount,
            destination_kind=body.destination.kind,
            destination_owner=body.destination.owner,
            ttl=ttl,
            reference=body.reference,
            acting=command.acting,
        )
        return HoldOut.of(hold)

    return await command.run(body, act)


@router.post("/holds/{hold_id}/post", tags=["holds"], response_model=HoldOut, status_code=200)
async def post_hold(hold_id: int, command: Internal, body: HoldPostIn | None = None) -> JSONResponse:
    """Post the hold (no body: all of it) to its destination; the rest is released."""
    request = body or HoldPostIn()  # no body and `{}` are the same request

    async def act(session: AsyncSession) -> HoldOut:
        hold, _ = await command.services.holds.post(session, hold_id, request.amount, command.acting)
        return HoldOut.of(hold)

    return await command.run(request, act, status=200)


@router.post("/holds/{hold_id}/void", tags=["holds"], response_model=HoldOut, status_code=200)
async def void_hold(hold_id: int, command: Internal) -> JSONResponse:
    async def act(session: AsyncSession) -> HoldOut:
        return HoldOut.of(await command.services.holds.void(session, hold_id, command.acting))

    return await command.run(None, act, status=200)


@router.get("/holds/{hold_id}", tags=["holds"], response_model=HoldOut)
async def get_hold(hold_id: int, services: ServicesDep, acting: Acting) -> HoldOut:
    async with services.runtime.db.sessions() as session:
        return HoldOut.of(await services.holds.get(session, hold_id, acting))


# -- operations and reconciliation --------------------------------------------------------------------------
@router.get("/operations/{operation_id}", tags=["operations"], response_model=OperationOut)
async def operation(operation_id: int, services: ServicesDep, acting: Acting) -> OperationOut:
    async with services.runtime.db.sessions() as session:
        return OperationOut.of(await services.queries.operation(session, operation_id, acting))


@router.post("/operations/{operation_id}/reversal", tags=["operations"], **OPERATION)
async def reverse(operation_id: int, body: ReversalIn, command: Internal) -> JSONResponse:
    """Correct an operation by posting its mirror image (the ledger is append-only). Once per operation."""
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
