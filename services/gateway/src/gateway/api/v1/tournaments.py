"""Tournaments, relayed to the tournament director (contract: docs/api/tournament-director.md): the lobby,
registration, rebuys and add-ons, and the operators' administration (tournaments from templates, start,
cancellation). Money moves (buy-in, refund, rebuy, add-on, cancellation refunds) carry the client's
Idempotency-Key to the director, which passes it to the wallet.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request, Response, status
from platform_kit.events.tournament import TournamentKind
from platform_kit.idempotency import IdempotencyKey

from gateway.api.access import PlayerInScope, allow, allow_on_player, services_of
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import (
    REGISTERED,
    TOURNAMENT_LISTING,
    UNREGISTERED,
    Cancellation,
    LobbyEntryRequest,
    Pause,
    Registration,
    answers,
    dict_body_examples,
)
from gateway.domain.roles import Principal, Role

router = APIRouter(prefix=API_V1, tags=["tournaments"], responses=RELAYED)

Anyone = Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Staff = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]
Player = Annotated[Principal, Depends(allow(Role.PLAYER, good_standing=True))]
#: Who may register someone; the registrant's standing (P-12.5) is checked on the player the route is for
#: (`Players.registrant`), once.
Registrar = Anyone
OnPlayer = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]

TournamentStatus = Literal["announced", "registering", "running", "finished", "cancelled"]


def _tournament(tournament_id: str, *rest: str) -> str:
    return "/".join([f"/v1/tournaments/{segment(tournament_id)}", *rest])


def _internal(tournament_id: str, *rest: str) -> str:
    return "/".join([f"/internal/v1/tournaments/{segment(tournament_id)}", *rest])


# -- the lobby ------------------------------------------------------------------------------------------------
@router.get("/tournaments", summary="The lobby: tournaments", responses=answers(TOURNAMENT_LISTING))
async def lobby(
    request: Request,
    _: Anyone,
    status_: Annotated[TournamentStatus | None, Query(alias="status")] = None,
    kind: Annotated[TournamentKind | None, Query()] = None,
) -> Response:
    params = {"status": status_, "kind": kind}
    return await relay(clients_of(request).tournament_director, "GET", "/v1/tournaments", params=params)


@router.get(
    "/tournaments/{tournament_id}",
    summary="A tournament: structure, levels, payouts for the current field, registrations, clock, tables",
)
async def tournament(tournament_id: str, request: Request, _: Anyone) -> Response:
    return await relay(clients_of(request).tournament_director, "GET", _tournament(tournament_id))


@router.get("/tournaments/{tournament_id}/standings", summary="Chips, tables and finishing positions")
async def standings(tournament_id: str, request: Request, _: Anyone) -> Response:
    return await relay(clients_of(request).tournament_director, "GET", _tournament(tournament_id, "standings"))


@router.get("/players/{player_id}/tournaments", summary="The player's tournaments, with their table and seat")
async def players_tournaments(request: Request, scope: OnPlayer) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/tournaments"
    return await relay(clients_of(request).tournament_director, "GET", path, principal=scope.principal)


@router.get(
    "/players/{player_id}/tickets",
    summary="The player's tickets: entries given back and seats won in satellites (P-3.4, P-10.12)",
)
async def players_tickets(request: Request, scope: OnPlayer) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/tickets"
    return await relay(clients_of(request).tournament_director, "GET", path, principal=scope.principal)


# -- registration, rebuys, add-ons -----------------------------------------------------------------------------
@router.post(
    "/tournaments/{tournament_id}/registrations",
    status_code=status.HTTP_201_CREATED,
    summary="Register for a tournament (pays the buy-in, or uses a ticket or a satellite seat)",
    description="Players register themselves; partners, operators and administrators name one of their players. "
    "Banned players cannot register (P-12.5). Outside standalone mode, players of the demo concessionaire (play "
    "money) register only for its own tournaments (403 `demo_player_real_pool`).",
    responses=answers(REGISTERED, status=201),
)
async def register(
    tournament_id: str, body: Registration, request: Request, principal: Registrar, key: IdempotencyKey
) -> Response:
    player = await services_of(request).players.registrant(principal, body.player_id)
    await services_of(request).demo_scope.refuse_registration(player, tournament_id)
    entry: dict[str, Any] = {"player_id": player.id, "concessionaire_id": player.concessionaire_id, "entry": body.entry}
    if body.ticket_code is not None:
        entry["ticket_code"] = body.ticket_code
    director = clients_of(request).tournament_director
    return await relay(
        director, "POST", _internal(tournament_id, "registrations"), principal=principal, json=entry, key=key
    )


@router.delete(
    "/tournaments/{tournament_id}/registrations/{player_id}",
    summary="Unregister before the start: the buy-in is refunded",
    responses=answers(UNREGISTERED),
)
async def unregister(tournament_id: str, scope: OnPlayer, request: Request, key: IdempotencyKey) -> Response:
    path = _internal(tournament_id, "registrations", segment(scope.player.id))
    return await relay(clients_of(request).tournament_director, "DELETE", path, principal=scope.principal, key=key)


@router.post("/tournaments/{tournament_id}/rebuys", summary="Rebuy (P-4), paid from your account")
async def rebuy(tournament_id: str, request: Request, principal: Player, key: IdempotencyKey) -> Response:
    return await _player_purchase(request, principal, key, _internal(tournament_id, "rebuys"))


@router.post("/tournaments/{tournament_id}/addons", summary="Add-on (P-4), paid from your account")
async def addon(tournament_id: str, request: Request, principal: Player, key: IdempotencyKey) -> Response:
    return await _player_purchase(request, principal, key, _internal(tournament_id, "addons"))


async def _player_purchase(request: Request, principal: Principal, key: str, path: str) -> Response:
    body = {"player_id": principal.subject_id}
    return await relay(clients_of(request).tournament_director, "POST", path, principal=principal, json=body, key=key)


# -- administration ---------------------------------------------------------------------------------------------
@router.get("/tournament-templates", summary="Tournament templates with their definitions")
async def templates(request: Request, _: Staff) -> Response:
    return await relay(clients_of(request).tournament_director, "GET", "/v1/templates")


@router.post(
    "/tournaments",
    status_code=status.HTTP_201_CREATED,
    summary="Create a tournament, from a template or a whole definition",
    description="The body is the director's: `{template?, name, ...definition fields}`, validated there.",
    # Relayed as the director gives it, which answers 200 to a creation it had already made.
    responses={200: {"description": "Created before: the tournament as the first request created it"}},
)
async def create_tournament(
    request: Request,
    principal: Staff,
    definition: Annotated[
        dict[str, Any],
        Body(
            openapi_examples=dict_body_examples(
                "A heads-up sit'n'go from its template",
                {
                    "template": "heads_up_sit_and_go",
                    "name": "Heads-up Turbo",
                    "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
                },
            )
        ),
    ],
) -> Response:
    return await relay(
        clients_of(request).tournament_director,
        "POST",
        "/internal/v1/tournaments",
        principal=principal,
        json=definition,
    )


# -- the lobby's schedule (issue 17): administrators the network's, an operator their concessionaire's ------------
@router.get(
    "/lobby-schedule",
    summary="What the lobby keeps open: the schedule's entries",
    description="Administrators: the settings' entries (`source: settings`) and every one staff added; an "
    "operator: their concessionaire's.",
)
async def lobby_schedule(request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "GET", "/internal/v1/lobby-schedule", principal=principal)


@router.post(
    "/lobby-schedule",
    status_code=status.HTTP_201_CREATED,
    summary="Add an entry to the lobby's schedule",
    description="Without `every_minutes` a sit'n'go kept open (re-opened each time it fills); with it a scheduled "
    "tournament, the next one always registering. An operator's entry opens tournaments of their concessionaire. "
    "422 `validation_failed` (as creating the tournament would), 409 `lobby_entry_exists`.",
)
async def add_lobby_entry(body: LobbyEntryRequest, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    json = body.model_dump(exclude_none=True)
    return await relay(director, "POST", "/internal/v1/lobby-schedule", principal=principal, json=json)


@router.delete(
    "/lobby-schedule/{key}",
    summary="Disable an entry of the lobby's schedule",
    description="It opens nothing more (an occurrence already registering stays; its sit'n'go opens no "
    "successor). Idempotent. 404 `lobby_entry_not_found`, another concessionaire's too.",
)
async def disable_lobby_entry(key: str, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "DELETE", f"/internal/v1/lobby-schedule/{segment(key)}", principal=principal)


@router.post("/tournaments/{tournament_id}/start", summary="Start a scheduled tournament now")
async def start(tournament_id: str, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "POST", _internal(tournament_id, "start"), principal=principal)


@router.delete(
    "/tournaments/{tournament_id}/recurrence",
    summary="Stop a recurring sit'n'go from re-opening when it fills",
    description="It plays as it is but opens no successor: the recurring chain ends with it. Idempotent.",
)
async def stop_recurring(tournament_id: str, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "DELETE", _internal(tournament_id, "recurrence"), principal=principal)


@router.post(
    "/tournaments/{tournament_id}/pause",
    summary="Pause a running tournament for a technical problem",
    description="The blind clock stops and no new hand is dealt (hands in progress finish); players see the "
    "tournament paused with the reason. 409 `tournament_already_paused`, `tournament_not_running`.",
)
async def pause(tournament_id: str, body: Pause, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    path = _internal(tournament_id, "pause")
    return await relay(director, "POST", path, principal=principal, json=body.model_dump())


@router.post(
    "/tournaments/{tournament_id}/resume",
    summary="Resume a paused tournament",
    description="The clock runs again from where it stopped and the tables deal. 409 `tournament_not_paused`.",
)
async def resume(tournament_id: str, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "POST", _internal(tournament_id, "resume"), principal=principal)


@router.get(
    "/tournaments/{tournament_id}/cancellation-preview",
    summary="What cancelling now would refund, per player (P-10); nothing is cancelled",
    description="The cancellation's own computation on the tournament as it stands: every entry in full before "
    "the start; while running the P-10 rule on each table's last completed hand. 409 `not_cancellable` once over.",
)
async def cancellation_preview(tournament_id: str, request: Request, principal: Staff) -> Response:
    director = clients_of(request).tournament_director
    return await relay(director, "GET", _internal(tournament_id, "cancellation-preview"), principal=principal)


@router.post(
    "/tournaments/{tournament_id}/cancellation",
    summary="Cancel a tournament: every entry is refunded (P-10)",
)
async def cancel(
    tournament_id: str, body: Cancellation, request: Request, principal: Staff, key: IdempotencyKey
) -> Response:
    director = clients_of(request).tournament_director
    path = _internal(tournament_id, "cancellation")
    return await relay(director, "POST", path, principal=principal, json=body.model_dump(), key=key)
