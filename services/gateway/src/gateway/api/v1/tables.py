"""Tables: their public state and hand histories (relayed to the table engine), and a player's commands to
their table (sent on the bus; the table socket accepts the same commands as frames, see `ws.py`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status

from gateway.adapters.service_client import DownstreamProblem
from gateway.api.access import allow, services_of
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import (
    TABLE_VIEW,
    Accepted,
    ChatLine,
    DeckContribution,
    SittingOut,
    TableAction,
    answers,
)
from gateway.domain.channels import ENTITY_ID_MAX, ENTITY_ID_PATTERN
from gateway.domain.roles import Principal, Role
from gateway.service.hand_audit import HandAudits

router = APIRouter(prefix=API_V1, tags=["tables"], responses=RELAYED)

Anyone = Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Staff = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]
SeatedPlayer = Annotated[Principal, Depends(allow(Role.PLAYER, good_standing=True))]
# The id becomes a channel name (`table:<id>`) and a routing decision: the channels' alphabet, checked here.
# Table ids may hold '.' or '/' (the director's are `<tournament>.<phase>.<n>`), hence the `:path` routes; the
# routes with a suffix come before the bare one, which would otherwise take the suffix as part of the id.
TableId = Annotated[str, Path(pattern=ENTITY_ID_PATTERN, max_length=ENTITY_ID_MAX)]

PHH_EXAMPLE = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [10, 20]\n…'
NOT_DEALT_IN = "player_not_in_hand"


@router.get("/tables/{table_id:path}/hands", summary="The table's hands, newest first")
async def hands(
    table_id: TableId,
    request: Request,
    _: Anyone,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(description="`next_before` of the previous page.")] = None,
) -> Response:
    path = f"/v1/tables/{segment(table_id)}/hands"
    return await relay(clients_of(request).table_engine, "GET", path, params={"limit": limit, "before": before})


@router.get(
    "/tournaments/{tournament_id}/hands",
    summary="A tournament's hands, every table's, newest first (the results link them to the replayer)",
    description="The same summaries as a table's hands: who was dealt in and the stacks, no card. With "
    "`player_id`, only the hands that player was dealt in, looked for among the next 500 at most: a page may "
    "hold fewer than `limit` with `next_before` set.",
)
async def tournament_hands(
    tournament_id: str,
    request: Request,
    _: Anyone,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(description="`next_before` of the previous page.")] = None,
    player_id: Annotated[str | None, Query(max_length=100)] = None,
) -> Response:
    path = f"/v1/tournaments/{segment(tournament_id)}/hands"
    params = {"limit": limit, "before": before, "player_id": player_id}
    return await relay(clients_of(request).table_engine, "GET", path, params=params)


@router.get(
    "/hands/{hand_id}/phh",
    summary="A hand history (PHH) to download",
    description="A player dealt in gets their own copy: their hole cards and the cards shown. Anyone else gets "
    "everyone's copy: only the cards shown at the table (P-1.4).",
    responses={200: {"description": "The history", "content": {"application/toml": {"example": PHH_EXAMPLE}}}},
)
async def history(hand_id: str, request: Request, principal: Anyone) -> Response:
    engine = clients_of(request).table_engine
    if principal.role is Role.PLAYER:
        own = f"/internal/v1/hands/{segment(hand_id)}/phh"
        try:
            return await relay(engine, "GET", own, params={"player_id": principal.subject_id})
        except DownstreamProblem as problem:
            if problem.body.get("code") != NOT_DEALT_IN:
                raise
    return await relay(engine, "GET", f"/v1/hands/{segment(hand_id)}/phh")


@router.get(
    "/hands/{hand_id}/audit",
    summary="Audit: the recorded deck and every hole card (P-1.3), once the hand has ended",
    description="Administrators audit any hand; an operator the hands of its own concessionaire's tournaments "
    "(any other answers 404 `hand_not_found`, like a missing hand). Refused with 409 `hand_in_progress` until "
    "the hand has ended: until then its cards are its players' alone (P-1.4).",
)
async def audit(hand_id: str, request: Request, principal: Staff) -> Response:
    clients = clients_of(request)
    await HandAudits(clients.table_engine, clients.tournament_director).require_auditor(principal, hand_id)
    return await relay(clients.table_engine, "GET", f"/internal/v1/hands/{segment(hand_id)}/audit")


@router.post(
    "/tables/{table_id:path}/actions",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Act in the hand: fold, check, call, bet or raise",
    description="Accepted for the table engine, which decides. The outcome comes on the table's stream: "
    "`table.action.taken`, or `table.action.rejected` to you alone.",
)
async def act(table_id: TableId, body: TableAction, request: Request, principal: SeatedPlayer) -> Accepted:
    tables = services_of(request).tables
    await tables.act(principal.subject_id, table_id, body.hand_id, body.action, body.amount)
    return Accepted(table_id=table_id)


@router.post(
    "/tables/{table_id:path}/chat",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Say something at the table",
    description="Refused with `chat_banned` while a chat ban is in force (P-12.3, P-12.4).",
)
async def chat(table_id: TableId, body: ChatLine, request: Request, principal: SeatedPlayer) -> Accepted:
    await services_of(request).tables.chat(principal.subject_id, table_id, body.text)
    return Accepted(table_id=table_id)


@router.post(
    "/tables/{table_id:path}/sitting-out",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Sit out, or come back in (also after a timeout or a disconnection)",
)
async def sitting_out(table_id: TableId, body: SittingOut, request: Request, principal: SeatedPlayer) -> Accepted:
    await services_of(request).tables.sit_out(principal.subject_id, table_id, body.sitting_out)
    return Accepted(table_id=table_id)


@router.post(
    "/tables/{table_id:path}/contributions",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Contribute a random value to the deck of the table's next hand (provably fair deals)",
    description="For players seated at the table: the table engine takes it only from one, and answers on the "
    "table's stream to you alone, `table.contribution.accepted` (with the commitment of the hand it goes into) "
    "or `table.action.rejected` (`not_seated`, `table_closed`, `no_deck_commitment`). The seed of that hand was committed to before: "
    "the value cannot have been known when it was drawn. Sent during a hand, it goes into the following one; a "
    "second value for the same hand replaces the first (docs/fair-deal.md).",
)
async def contribute(table_id: TableId, body: DeckContribution, request: Request, principal: SeatedPlayer) -> Accepted:
    await services_of(request).tables.contribute(principal.subject_id, table_id, body.value)
    return Accepted(table_id=table_id)


@router.get("/tables/{table_id:path}", summary="A table's public state", responses=answers(TABLE_VIEW))
async def table(table_id: TableId, request: Request, _: Anyone) -> Response:
    return await relay(clients_of(request).table_engine, "GET", f"/v1/tables/{segment(table_id)}")
