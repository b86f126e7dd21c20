"""The totalizator for everyone and for players: draws, live statistics (T-2.6), the published files (T-8),
the jackpot, and coupons. A coupon carries the player and their birth date from the gateway's identity store
(T-1.4) — a client can send neither — and the client's Idempotency-Key, which the totalizator turns into the
wallet's key for the stake."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response, status
from platform_kit.errors import NotFound
from platform_kit.idempotency import IdempotencyKey

from gateway.api.access import PlayerInScope, allow, allow_on_player, allow_player_in_good_standing, public, services_of
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import COUPON, DRAW, STATISTICS, CouponPlacement, answers
from gateway.domain.roles import Principal, Role

router = APIRouter(prefix=API_V1, tags=["totalizator"], responses=RELAYED)

Bettor = Annotated[PlayerInScope, Depends(allow_player_in_good_standing())]
Anyone = Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
OnPlayer = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
Public = [Depends(public())]

DrawStatus = Literal["open", "closed", "settling", "settled", "cancelling", "cancelled"]


def _draw(draw_id: str, *rest: str) -> str:
    return "/".join([f"/v1/draws/{segment(draw_id)}", *rest])


@router.get("/draws", dependencies=Public, summary="Draws, the latest closing first")
async def draws(
    request: Request,
    status_: Annotated[
        list[DrawStatus] | None, Query(alias="status", description="Only draws in these states.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    params = {"status": status_, "limit": limit}
    return await relay(clients_of(request).totalizator, "GET", "/v1/draws", params=params)


@router.get(
    "/draws/{draw_id}",
    dependencies=Public,
    summary="A draw: matches, results offered, currencies and minimum stakes",
    responses=answers(DRAW),
)
async def draw(draw_id: str, request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", _draw(draw_id))


@router.get(
    "/draws/{draw_id}/statistics",
    dependencies=Public,
    summary="Bets and amounts per match and result (T-2.6)",
    description="Live while bets are taken (also on the `draw:<id>` stream); the final count once `final`.",
    responses=answers(STATISTICS),
)
async def statistics(draw_id: str, request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", _draw(draw_id, "statistics"))


@router.get(
    "/draws/{draw_id}/files/draw.json",
    dependencies=Public,
    summary="The draw file draw-<id>.json (T-8.2)",
    responses={200: {"description": "The draw file", "content": {"application/json": {}}}},
)
async def draw_file(draw_id: str, request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", _draw(draw_id, "files", "draw.json"))


@router.get(
    "/draws/{draw_id}/files/bets.csv",
    dependencies=Public,
    summary="The bet file bets-<id>.csv (T-8.3), to check the payouts",
    responses={200: {"description": "The bet file", "content": {"text/csv": {}}}},
)
async def bets_file(draw_id: str, request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", _draw(draw_id, "files", "bets.csv"))


@router.get(
    "/draws/{draw_id}/settlement", dependencies=Public, summary="The settlement as the verifier prints it (T-8.4)"
)
async def settlement(draw_id: str, request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", _draw(draw_id, "settlement"))


@router.get(
    "/totalizator/jackpot",
    dependencies=Public,
    summary="The jackpot waiting for the next draw (T-4.1)",
    responses=answers({"jackpot_usd": "1250.00"}),
)
async def jackpot(request: Request) -> Response:
    return await relay(clients_of(request).totalizator, "GET", "/v1/jackpot")


@router.post(
    "/draws/{draw_id}/coupons",
    status_code=status.HTTP_201_CREATED,
    summary="Place a coupon: several results per match make a system bet (T-2.4)",
    description="The stake is taken from your account in `currency`. A retry with the same Idempotency-Key "
    "answers the first coupon (200, `Idempotent-Replayed`) and never takes the stake twice. Bets close at the "
    "draw's closing time (T-2.5); players under 18 are refused (T-1.4), and so are players of the demo concessionaire "
    "(play money) outside standalone mode (403 `demo_player_real_pool`).",
    responses=answers(COUPON, status=201)
    | answers(COUPON, description="The first coupon, replayed (`Idempotent-Replayed: true`)"),
)
async def place_coupon(
    draw_id: str, body: CouponPlacement, request: Request, bettor: Bettor, key: IdempotencyKey
) -> Response:
    player = bettor.player
    await services_of(request).demo_scope.refuse_coupon(player)
    coupon = {
        "player_id": player.id,
        "birth_date": player.date_of_birth.isoformat(),
        "currency": body.currency,
        "amount": body.amount,
        "picks": body.picks,
    }
    path = f"/internal/v1/draws/{segment(draw_id)}/coupons"
    return await relay(clients_of(request).totalizator, "POST", path, principal=bettor.principal, json=coupon, key=key)


@router.get("/players/{player_id}/coupons", summary="The player's coupons, latest first", responses=answers([COUPON]))
async def players_coupons(
    request: Request,
    scope: OnPlayer,
    draw_id: Annotated[str | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/coupons"
    params = {"draw_id": draw_id, "limit": limit}
    return await relay(clients_of(request).totalizator, "GET", path, principal=scope.principal, params=params)


@router.get("/coupons/{coupon_id}", summary="One coupon: yours, or one of your players'", responses=answers(COUPON))
async def coupon(coupon_id: str, request: Request, principal: Anyone) -> Response:
    answer = await relay(clients_of(request).totalizator, "GET", f"/internal/v1/coupons/{segment(coupon_id)}")
    owner = _owner_of(answer)
    try:
        await services_of(request).players.get(principal, owner)
    except NotFound:
        # Someone else's coupon answers exactly like a missing one.
        raise NotFound("coupon_not_found", "No such coupon.") from None
    return answer


def _owner_of(answer: Response) -> str:
    coupon = json.loads(bytes(answer.body))
    owner = coupon.get("player_id") if isinstance(coupon, dict) else None
    return owner if isinstance(owner, str) else ""
