"""Draw administration, relayed by the gateway (X-Internal-Token, X-Principal-Role): any staff member reads it,
the network's administrators alone change a draw (`AdminDep`, T-1.5)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from platform_kit.internal_api import require_internal_token

from totalizator.api.deps import AdminDep, ServicesDep, staff_of
from totalizator.api.schemas import (
    DecisionOut,
    DrawAdminOut,
    DrawIn,
    DrawSummaryOut,
    KickoffIn,
    ReasonIn,
    ResultIn,
    TransferOut,
)
from totalizator.bootstrap import Services
from totalizator.domain import MATCH_COUNT, DrawStatus
from totalizator.service.draws import CurrencySpec, DraftSpec, MatchSpec

router = APIRouter(
    prefix="/internal/v1",
    tags=["administration"],
    dependencies=[Depends(require_internal_token), Depends(staff_of)],
)
MatchNo = Annotated[int, Path(ge=1, le=MATCH_COUNT)]


async def _view(services: Services, draw_id: str) -> DrawAdminOut:
    return DrawAdminOut.of(await services.queries.draw(draw_id, staff=True))


@router.post("/draws", response_model=DrawAdminOut, status_code=201, summary="Prepare a draw (a draft)")
async def create_draw(body: DrawIn, services: ServicesDep, staff: AdminDep) -> DrawAdminOut:
    """8 matches with their offered results (T-2.1), accepted currencies with minimum stakes and the FX rates
    to US dollars (T-2.2, T-2.3), the closing time, and any organizer top-up of the jackpot (T-4.4)."""
    spec = DraftSpec(
        draw_id=body.draw_id,
        close_at=body.close_at,
        matches=tuple(
            MatchSpec(
                home=m.home,
                away=m.away,
                kickoff=m.kickoff,
                competition=m.competition,
                options=None if m.options is None else tuple(m.options),
            )
            for m in body.matches
        ),
        currencies=tuple(CurrencySpec(c.currency, c.min_stake, c.usd_rate) for c in body.currencies),
        jackpot_topup_usd=body.jackpot_topup_usd,
        topup_reason=body.topup_reason,
    )
    await services.admin.create(spec, staff)
    return await _view(services, body.draw_id)


@router.get("/draws", response_model=list[DrawSummaryOut], summary="Draws in any state, drafts included")
async def list_draws(
    services: ServicesDep,
    status: Annotated[list[DrawStatus] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[DrawSummaryOut]:
    records = await services.queries.draws(status or list(DrawStatus), limit=limit)
    return [DrawSummaryOut.of(record) for record in records]


@router.get("/draws/{draw_id}", response_model=DrawAdminOut, summary="A draw with its operational state")
async def get_draw(draw_id: str, services: ServicesDep) -> DrawAdminOut:
    return await _view(services, draw_id)


@router.post("/draws/{draw_id}/announce", response_model=DrawAdminOut, summary="Open the draw for bets (T-2.2)")
async def announce(draw_id: str, services: ServicesDep, staff: AdminDep) -> DrawAdminOut:
    await services.admin.announce(draw_id, staff)
    return await _view(services, draw_id)


@router.put(
    "/draws/{draw_id}/matches/{no}/kickoff",
    response_model=DrawAdminOut,
    summary="Record a match's actual kick-off (before bet closing: void, T-5.1)",
)
async def record_kickoff(
    draw_id: str, no: MatchNo, body: KickoffIn, services: ServicesDep, staff: AdminDep
) -> DrawAdminOut:
    await services.admin.record_kickoff(draw_id, no, body.kickoff, body.reason, staff)
    return await _view(services, draw_id)


@router.put(
    "/draws/{draw_id}/matches/{no}/result",
    response_model=DrawAdminOut,
    summary="Enter (or, with a reason, correct) a match's regular-time score",
)
async def enter_result(
    draw_id: str, no: MatchNo, body: ResultIn, services: ServicesDep, staff: AdminDep
) -> DrawAdminOut:
    await services.admin.enter_result(draw_id, no, body.home, body.away, body.reason, staff)
    return await _view(services, draw_id)


@router.post(
    "/draws/{draw_id}/matches/{no}/void",
    response_model=DrawAdminOut,
    summary="Void a match by decision, with its reason (T-5.1, T-1.5)",
)
async def void_match(draw_id: str, no: MatchNo, body: ReasonIn, services: ServicesDep, staff: AdminDep) -> DrawAdminOut:
    await services.admin.void_match(draw_id, no, body.reason, staff)
    return await _view(services, draw_id)


@router.get(
    "/draws/{draw_id}/settlement-preview",
    response_model=dict[str, Any],
    summary="What settling now would pay (T-3 to T-6), written nowhere: check it before settling",
    description="The verifier's report (T-8.4) of a closed draw, plus `final_count` (false while stakes are "
    "still unconfirmed: settling is refused until it is true). 409 `cannot_settle` when a valid match has no "
    "result yet.",
)
async def settlement_preview(draw_id: str, services: ServicesDep, staff: AdminDep) -> dict[str, Any]:
    return await services.settlements.preview(draw_id)


@router.post(
    "/draws/{draw_id}/settle",
    response_model=DrawAdminOut,
    summary="Settle and pay out (T-3 to T-6; refunds with 3+ void matches, T-5.5)",
    description="Idempotent. Answers once every wallet transfer is made (`settled`), or with `settling` when "
    "the wallet did not answer them all: the draw clock resumes them.",
)
async def settle(draw_id: str, services: ServicesDep, staff: AdminDep) -> DrawAdminOut:
    await services.settlements.settle(draw_id, staff)
    return await _view(services, draw_id)


@router.post(
    "/draws/{draw_id}/cancel",
    response_model=DrawAdminOut,
    summary="Cancel the draw and refund every coupon (T-5.5)",
)
async def cancel(draw_id: str, body: ReasonIn, services: ServicesDep, staff: AdminDep) -> DrawAdminOut:
    await services.settlements.cancel(draw_id, body.reason, staff)
    return await _view(services, draw_id)


@router.get(
    "/draws/{draw_id}/decisions",
    response_model=list[DecisionOut],
    summary="Every operator decision on the draw, with its reason (T-1.5)",
)
async def decisions(draw_id: str, services: ServicesDep) -> list[DecisionOut]:
    return [DecisionOut.of(decision) for decision in await services.queries.decisions(draw_id)]


@router.get(
    "/draws/{draw_id}/transfers",
    response_model=list[TransferOut],
    summary="The draw's wallet transfers: payouts, refunds, the organizer's transfers",
)
async def wallet_transfers(draw_id: str, services: ServicesDep) -> list[TransferOut]:
    return [TransferOut.of(transfer) for transfer in await services.queries.transfers(draw_id)]
