"""Totalizator draw administration, relayed to the totalizator with the staff member as `X-Principal-*` (every
decision is kept there with its reason, T-1.5). The draws are the whole network's, not one concessionaire's:
every staff member may read their administration, only the network's administrators change a draw (create,
announce, kick-off, result, void, settle, cancel); the totalizator checks the same. Bodies are the
totalizator's own and validated there; the examples below show their shape."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response, status

from gateway.api.access import allow
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import dict_body_examples
from gateway.domain.roles import Principal, Role

router = APIRouter(prefix=API_V1 + "/admin/draws", tags=["totalizator administration"], responses=RELAYED)

Staff = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]
Admin = Annotated[Principal, Depends(allow(Role.ADMIN))]
MatchNo = Annotated[int, Path(ge=1, le=8)]
DrawStatus = Literal["draft", "open", "closed", "settling", "settled", "cancelling", "cancelled"]

_MATCH = {"competition": "Serie A", "home": "Roma", "away": "Lazio", "kickoff": "2030-06-08T13:00:00Z"}
NEW_DRAW = {
    "draw_id": "2030-23",
    "close_at": "2030-06-08T13:00:00Z",
    "matches": [_MATCH] * 8,
    "currencies": [{"currency": "EUR", "min_stake": "0.10", "usd_rate": "1.0843"}],
    "jackpot_topup_usd": "0",
}


def _internal(draw_id: str, *rest: str) -> str:
    return "/".join([f"/internal/v1/draws/{segment(draw_id)}", *rest])


async def _staff_call(request: Request, principal: Principal, method: str, path: str, body: Any = None) -> Response:
    return await relay(clients_of(request).totalizator, method, path, principal=principal, json=body)


@router.post(
    "", status_code=status.HTTP_201_CREATED, summary="Prepare a draw (a draft): 8 matches, currencies, closing"
)
async def create(
    request: Request,
    principal: Admin,
    draw: Annotated[dict[str, Any], Body(openapi_examples=dict_body_examples("A draw with one currency", NEW_DRAW))],
) -> Response:
    return await _staff_call(request, principal, "POST", "/internal/v1/draws", draw)


@router.get("", summary="Draws in any state, drafts included")
async def listing(
    request: Request,
    principal: Staff,
    status_: Annotated[list[DrawStatus] | None, Query(alias="status")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    client = clients_of(request).totalizator
    params = {"status": status_, "limit": limit}
    return await relay(client, "GET", "/internal/v1/draws", principal=principal, params=params)


@router.get("/{draw_id}", summary="A draw with its operational state")
async def read(draw_id: str, request: Request, principal: Staff) -> Response:
    return await _staff_call(request, principal, "GET", _internal(draw_id))


@router.post("/{draw_id}/announce", summary="Open the draw for bets (T-2.2)")
async def announce(draw_id: str, request: Request, principal: Admin) -> Response:
    return await _staff_call(request, principal, "POST", _internal(draw_id, "announce"))


@router.put("/{draw_id}/matches/{no}/kickoff", summary="Record a match's actual kick-off (before closing: void, T-5.1)")
async def kickoff(
    draw_id: str,
    no: MatchNo,
    request: Request,
    principal: Admin,
    body: Annotated[
        dict[str, Any],
        Body(openapi_examples=dict_body_examples("Kicked off", {"kickoff": "2030-06-08T13:02:00Z"})),
    ],
) -> Response:
    return await _staff_call(request, principal, "PUT", _internal(draw_id, "matches", str(no), "kickoff"), body)


@router.put("/{draw_id}/matches/{no}/result", summary="Enter (or, with a reason, correct) a regular-time score")
async def result(
    draw_id: str,
    no: MatchNo,
    request: Request,
    principal: Admin,
    body: Annotated[dict[str, Any], Body(openapi_examples=dict_body_examples("2-1", {"home": 2, "away": 1}))],
) -> Response:
    return await _staff_call(request, principal, "PUT", _internal(draw_id, "matches", str(no), "result"), body)


@router.post("/{draw_id}/matches/{no}/void", summary="Void a match by decision, with its reason (T-5.1, T-1.5)")
async def void(
    draw_id: str,
    no: MatchNo,
    request: Request,
    principal: Admin,
    body: Annotated[
        dict[str, Any], Body(openapi_examples=dict_body_examples("Abandoned", {"reason": "Match abandoned (fog)"}))
    ],
) -> Response:
    return await _staff_call(request, principal, "POST", _internal(draw_id, "matches", str(no), "void"), body)


@router.get(
    "/{draw_id}/settlement-preview",
    summary="What settling now would pay: categories, coefficients, top-up, next jackpot (nothing written)",
)
async def settlement_preview(draw_id: str, request: Request, principal: Admin) -> Response:
    return await _staff_call(request, principal, "GET", _internal(draw_id, "settlement-preview"))


@router.post("/{draw_id}/settle", summary="Settle and pay out (T-3 to T-6; refunds with 3+ void matches, T-5.5)")
async def settle(draw_id: str, request: Request, principal: Admin) -> Response:
    return await _staff_call(request, principal, "POST", _internal(draw_id, "settle"))


@router.post("/{draw_id}/cancel", summary="Cancel the draw and refund every coupon (T-5.5)")
async def cancel(
    draw_id: str,
    request: Request,
    principal: Admin,
    body: Annotated[
        dict[str, Any], Body(openapi_examples=dict_body_examples("Cancelled", {"reason": "Fixtures postponed"}))
    ],
) -> Response:
    return await _staff_call(request, principal, "POST", _internal(draw_id, "cancel"), body)


@router.get("/{draw_id}/decisions", summary="Every staff decision on the draw, with its reason (T-1.5)")
async def decisions(draw_id: str, request: Request, principal: Staff) -> Response:
    return await _staff_call(request, principal, "GET", _internal(draw_id, "decisions"))


@router.get("/{draw_id}/transfers", summary="The draw's wallet transfers: payouts, refunds, organizer transfers")
async def transfers(draw_id: str, request: Request, principal: Staff) -> Response:
    return await _staff_call(request, principal, "GET", _internal(draw_id, "transfers"))
