"""Coupons, relayed by the gateway for its players (X-Internal-Token; the player's Idempotency-Key)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from platform_kit.idempotency import IdempotencyKey, keyed_answer
from platform_kit.internal_api import require_internal_token

from totalizator.api.deps import ServicesDep
from totalizator.api.schemas import CouponIn, CouponOut
from totalizator.service.coupons import CouponRequest
from totalizator.service.queries import CouponView

router = APIRouter(prefix="/internal/v1", tags=["coupons"], dependencies=[Depends(require_internal_token)])


@router.post(
    "/draws/{draw_id}/coupons",
    response_model=CouponOut,
    status_code=201,
    summary="Place a coupon; its stake is taken through the wallet",
    responses={
        200: {"model": CouponOut, "description": "A retry with the same Idempotency-Key: the first answer."},
        403: {"description": "underage_player (T-1.4)"},
        409: {"description": "betting_closed (T-2.5), draw_not_playable (T-5.5), the wallet's insufficient_funds …"},
        422: {"description": "below_minimum_stake, currency_not_accepted, option_not_offered … (T-2.4)"},
        503: {
            "description": "payment_pending: the wallet did not answer, or its answer is not recorded yet; "
            "intake_busy: too many coupons in flight, nothing was recorded. Both with Retry-After: retry with the "
            "same Idempotency-Key"
        },
    },
)
async def place_coupon(draw_id: str, body: CouponIn, key: IdempotencyKey, services: ServicesDep) -> JSONResponse:
    request = CouponRequest(
        draw_id=draw_id,
        player_id=body.player_id,
        birth_date=body.birth_date,
        currency=body.currency,
        amount=body.amount,
        picks=tuple(tuple(labels) for labels in body.picks),
    )
    placed = await services.intake.place(request, key)
    view = CouponView(placed.coupon, placed.draw)
    coupon = CouponOut.of(view).model_dump(mode="json")
    return keyed_answer(200 if placed.replayed else 201, coupon, replayed=placed.replayed)


@router.get("/coupons/{coupon_id}", response_model=CouponOut, summary="A coupon")
async def get_coupon(coupon_id: str, services: ServicesDep) -> CouponOut:
    return CouponOut.of(await services.queries.coupon(coupon_id))


@router.get("/players/{player_id}/coupons", response_model=list[CouponOut], summary="A player's coupons, latest first")
async def player_coupons(
    player_id: str,
    services: ServicesDep,
    draw_id: Annotated[str | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[CouponOut]:
    views: list[CouponView] = await services.queries.player_coupons(player_id, draw_id=draw_id, limit=limit)
    return [CouponOut.of(view) for view in views]
