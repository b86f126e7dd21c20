"""Internal routes (the gateway, operators' tools): creating, registering, buying, starting and cancelling.
Every route needs `X-Internal-Token` and the caller's principal headers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse
from platform_kit.errors import NotFound
from platform_kit.idempotency import IdempotencyKey, OptionalIdempotencyKey
from platform_kit.internal_api import require_internal_token

from tournament_director.adapters import tournaments
from tournament_director.api.deps import DirectorDep, PrincipalDep
from tournament_director.api.keyed import answer_once
from tournament_director.api.schemas import (
    CancellationIn,
    CancellationPreviewOut,
    CancelledOut,
    PauseIn,
    PlayerTournamentOut,
    PurchasedOut,
    PurchaseIn,
    RefundOut,
    RegisteredOut,
    RegistrationIn,
    TicketOut,
    TournamentOut,
    UnregisteredOut,
)
from tournament_director.service import queries
from tournament_director.service.cancellation_preview import preview as cancellation_preview_of
from tournament_director.service.commands import (
    Cancel,
    CreateTournament,
    Pause,
    Purchase,
    PurchaseKind,
    RegisterPlayer,
    Resume,
    StartNow,
    StopRecurring,
    Unregister,
)
from tournament_director.service.context import Director
from tournament_director.service.handlers import handle
from tournament_director.service.principals import Principal, Role

router = APIRouter(prefix="/internal/v1", tags=["administration"], dependencies=[Depends(require_internal_token)])


@router.post(
    "/tournaments",
    status_code=201,
    responses={201: {"model": TournamentOut}, 200: {"model": TournamentOut, "description": "Created before"}},
    summary="Create a tournament, from a template or a whole definition",
)
async def create_tournament(
    director: DirectorDep,
    principal: PrincipalDep,
    key: OptionalIdempotencyKey,
    body: Annotated[
        dict[str, Any],
        Body(
            examples=[
                {
                    "template": "heads_up_sit_and_go",
                    "name": "Heads-up Turbo",
                    "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
                }
            ]
        ),
    ],
) -> JSONResponse:
    """`{template?, name, ...definition fields}` plus `currency`, `starts_at` (scheduled), `registration_opens_at`,
    `concessionaire_id` (administrators; an operator's is their own), `jackpots`, `invited_player_ids`,
    `tournament_id`. Invalid: 422 `validation_failed` with `errors: [{field, code, message}]`. The same
    Idempotency-Key gives back the tournament it created (200)."""
    record, created = await handle(director, CreateTournament(principal, body, key))
    return JSONResponse(await queries.details(director, record.tournament_id), status_code=201 if created else 200)


@router.post(
    "/tournaments/{tournament_id}/registrations",
    status_code=201,
    response_model=RegisteredOut,
    tags=["registration"],
    summary="Register a player: pays the buy-in (or takes a ticket or a satellite seat)",
)
async def register(
    tournament_id: str, body: RegistrationIn, director: DirectorDep, principal: PrincipalDep, key: IdempotencyKey
) -> JSONResponse:
    """Refusals: 403 `not_eligible` (with `reason`, `tier`), 403 `satellite_entry_only` (a target closed to
    buy-ins), the wallet's 403 `forbidden_concessionaire` (the player is another concessionaire's), 404
    `no_satellite_seat`, 409 `tournament_full`, `registration_closed`, `already_registered`, the wallet's
    `insufficient_funds` (also for a player with no account in the tournament's currency); 422 `not_a_freeroll`
    (a `freeroll` entry to a paid tournament), `ticket_code_missing`; 503 when the wallet or rating cannot be
    reached, `director_busy` when too many registrations run at once, or `outcome_pending` when the answer takes
    longer than `keyed_request_deadline_seconds` (repeat the request with the same key: it is never charged
    twice). The key is the caller's name for this registration: repeated, it answers the first answer; with
    another tournament, player or entry, 409 `idempotency_key_reused`; while the first is still running, 409
    `idempotency_key_in_flight` (repeat it)."""
    principal.require_player_scope(body.player_id, body.concessionaire_id)
    command = RegisterPlayer(tournament_id, body.player_id, body.concessionaire_id, body.entry, body.ticket_code, key)

    async def registered() -> dict[str, Any]:
        done = await handle(director, command)
        return RegisteredOut(
            tournament_id=done.tournament_id, player_id=done.player_id, entry=done.entry, registered=done.registered
        ).model_dump(mode="json")

    fields = {"tournament_id": tournament_id, **body.model_dump(mode="json")}
    return await answer_once(director, principal, key, "register", fields, registered, status=201)


@router.delete(
    "/tournaments/{tournament_id}/registrations/{player_id}",
    response_model=UnregisteredOut,
    tags=["registration"],
    summary="Unregister before the start: the entry is refunded",
)
async def unregister(
    tournament_id: str, player_id: str, director: DirectorDep, principal: PrincipalDep, key: OptionalIdempotencyKey
) -> JSONResponse:
    """Repeated with its Idempotency-Key it answers the first answer; the key with another tournament or player:
    409 `idempotency_key_reused`."""

    async def unregistered() -> dict[str, Any]:
        refunded = await handle(director, Unregister(principal, tournament_id, player_id))
        return UnregisteredOut(tournament_id=tournament_id, player_id=player_id, refunded_cents=refunded).model_dump(
            mode="json"
        )

    fields = {"tournament_id": tournament_id, "player_id": player_id}
    return await answer_once(director, principal, key, "unregister", fields, unregistered)


@router.post("/tournaments/{tournament_id}/rebuys", response_model=PurchasedOut, tags=["play"], summary="Rebuy (P-4.2)")
async def rebuy(
    tournament_id: str, body: PurchaseIn, director: DirectorDep, principal: PrincipalDep, key: IdempotencyKey
) -> JSONResponse:
    """409 `rebuy_refused` (with `reason`: limit_reached, period_over, not_out_of_chips…), the wallet's refusals.
    The key names this rebuy: repeated, the first answer; for another purchase, 409 `idempotency_key_reused`."""
    return await _purchase(director, principal, tournament_id, body, "rebuy", key)


@router.post(
    "/tournaments/{tournament_id}/addons", response_model=PurchasedOut, tags=["play"], summary="Add-on (P-4.3)"
)
async def addon(
    tournament_id: str, body: PurchaseIn, director: DirectorDep, principal: PrincipalDep, key: IdempotencyKey
) -> JSONResponse:
    """As a rebuy: 409 `addon_refused` (with `reason`), the wallet's refusals, the same key rules."""
    return await _purchase(director, principal, tournament_id, body, "addon", key)


async def _purchase(
    director: Director, principal: Principal, tournament_id: str, body: PurchaseIn, kind: PurchaseKind, key: str
) -> JSONResponse:
    async def purchased() -> dict[str, Any]:
        done = await handle(director, Purchase(principal, tournament_id, body.player_id, kind, key))
        return PurchasedOut(**done.__dict__).model_dump(mode="json")

    fields = {"tournament_id": tournament_id, **body.model_dump(mode="json")}
    return await answer_once(director, principal, key, kind, fields, purchased)


@router.post(
    "/tournaments/{tournament_id}/start", response_model=TournamentOut, summary="Start a scheduled tournament now"
)
async def start(tournament_id: str, director: DirectorDep, principal: PrincipalDep) -> dict[str, Any]:
    await handle(director, StartNow(principal, tournament_id))
    return await queries.details(director, tournament_id)


@router.delete(
    "/tournaments/{tournament_id}/recurrence",
    response_model=TournamentOut,
    summary="Stop a recurring sit'n'go from re-opening",
)
async def stop_recurring(tournament_id: str, director: DirectorDep, principal: PrincipalDep) -> dict[str, Any]:
    """The sit'n'go plays as it is, but opens no successor when it fills (under its row lock, as the start that
    would open one). Idempotent: a tournament that does not recur answers as it is."""
    await handle(director, StopRecurring(principal, tournament_id))
    return await queries.details(director, tournament_id)


@router.post(
    "/tournaments/{tournament_id}/pause",
    response_model=TournamentOut,
    summary="Pause a running tournament for a technical problem",
)
async def pause(tournament_id: str, body: PauseIn, director: DirectorDep, principal: PrincipalDep) -> dict[str, Any]:
    """The blind clock stops and no new hand is dealt (hands in progress finish); `clock.paused_at` says since
    when. 409 `tournament_already_paused`, `tournament_not_running`."""
    await handle(director, Pause(principal, tournament_id, body.reason))
    return await queries.details(director, tournament_id)


@router.post("/tournaments/{tournament_id}/resume", response_model=TournamentOut, summary="Resume a paused tournament")
async def resume(tournament_id: str, director: DirectorDep, principal: PrincipalDep) -> dict[str, Any]:
    """The clock runs again from where it stopped and the tables deal. 409 `tournament_not_paused`,
    `tournament_not_running`."""
    await handle(director, Resume(principal, tournament_id))
    return await queries.details(director, tournament_id)


@router.post("/tournaments/{tournament_id}/cancellation", response_model=CancelledOut, summary="Cancel (P-10)")
async def cancel(
    tournament_id: str,
    body: CancellationIn,
    director: DirectorDep,
    principal: PrincipalDep,
    key: OptionalIdempotencyKey,
) -> JSONResponse:
    """Before the start every entry comes back; while running the P-10 calculator decides. The refunds are
    posted by the wallet shortly after (`tournament.settlement.completed`). Cancelling again answers the same;
    the same Idempotency-Key gives back the first answer whole, and with another tournament or reason 409
    `idempotency_key_reused`."""

    async def cancelled() -> dict[str, Any]:
        return (await _cancel(director, principal, tournament_id, body.reason)).model_dump(mode="json")

    fields = {"tournament_id": tournament_id, **body.model_dump(mode="json")}
    return await answer_once(director, principal, key, "cancel", fields, cancelled)


async def _cancel(director: Director, principal: Principal, tournament_id: str, reason: str) -> CancelledOut:
    answer = await handle(director, Cancel(principal, tournament_id, reason))
    if (cancelled := answer.cancelled) is None:
        return CancelledOut(
            tournament_id=tournament_id, status="cancelled", reason=answer.reason, rule=None, refunds=None
        )
    refunds = [RefundOut(player_id=r.player_id, cash_cents=r.cash_cents, tickets=r.tickets) for r in cancelled.refunds]
    return CancelledOut(
        tournament_id=tournament_id, status="cancelled", reason=answer.reason, rule=cancelled.rule, refunds=refunds
    )


@router.get(
    "/tournaments/{tournament_id}/cancellation-preview",
    response_model=CancellationPreviewOut,
    summary="What cancelling now would refund (P-10), nothing written",
)
async def cancellation_preview(
    tournament_id: str, director: DirectorDep, principal: PrincipalDep
) -> CancellationPreviewOut:
    """The cancellation's own computation on the state as it stands: every entry in full before the start, the
    P-10 calculator on the last completed hands while running; 409 `not_cancellable` once over."""
    async with director.runtime.units.reading() as session:
        tournament = await tournaments.get(session, tournament_id)
        if tournament is None:
            raise NotFound("tournament_not_found", f"No tournament {tournament_id}.")
        principal.require_manager_of(tournament.concessionaire_id)
        previewed = await cancellation_preview_of(director, session, tournament)
    lines = [RefundOut(player_id=r.player_id, cash_cents=r.cash_cents, tickets=r.tickets) for r in previewed.refunds]
    return CancellationPreviewOut(
        tournament_id=tournament_id,
        status=tournament.status.value,
        rule=previewed.rule,
        currency=tournament.currency,
        refunds=lines,
        total_cash_cents=sum(line.cash_cents for line in lines),
    )


@router.get(
    "/players/{player_id}/tournaments",
    response_model=list[PlayerTournamentOut],
    # A position and a prize appear once the player is ranked, as before: not as nulls.
    response_model_exclude_unset=True,
    tags=["registration"],
    summary="A player's tournaments",
)
async def player_tournaments(player_id: str, director: DirectorDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """`[{tournament_id, name, status, registration, entry, table_id, seat, chips, position?, prize_cents?}]`;
    partners and operators see the registrations made through their concessionaire."""
    listed = await queries.player_tournaments(director, player_id)
    return [item for item in listed if _sees(principal, player_id, item)]


@router.get(
    "/players/{player_id}/tickets",
    response_model=list[TicketOut],
    tags=["registration"],
    summary="A player's tickets (P-3.4, P-10.12)",
)
async def player_tickets(player_id: str, director: DirectorDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    if principal.role is Role.PLAYER:
        principal.require_player_scope(player_id, None)
    else:
        principal.require_staff()
    return await queries.player_tickets(director, player_id)


def _sees(principal: Principal, player_id: str, item: dict[str, Any]) -> bool:
    if principal.role is Role.ADMIN or (principal.role is Role.PLAYER and principal.subject_id == player_id):
        return True
    return (
        principal.role in (Role.OPERATOR, Role.PARTNER) and item.get("concessionaire_id") == principal.concessionaire_id
    )
