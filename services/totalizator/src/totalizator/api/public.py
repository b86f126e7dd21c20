"""Public, read-only routes: draws, live statistics (T-2.6), published files (T-8), settlement report."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from totalizator.adapters.draws import usd_text
from totalizator.api.deps import ServicesDep
from totalizator.api.schemas import DrawOut, DrawSummaryOut, JackpotOut, StatisticsOut
from totalizator.domain import DrawStatus

router = APIRouter(prefix="/v1", tags=["draws"])

PUBLIC_STATUSES = [status for status in DrawStatus if status.is_public]


@router.get("/draws", response_model=list[DrawSummaryOut], summary="Draws, the latest closing first")
async def list_draws(
    services: ServicesDep,
    status: Annotated[list[DrawStatus] | None, Query(description="Only draws in these states.")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[DrawSummaryOut]:
    statuses = [s for s in status or PUBLIC_STATUSES if s.is_public]
    return [DrawSummaryOut.of(record) for record in await services.queries.draws(statuses, limit=limit)]


@router.get("/draws/{draw_id}", response_model=DrawOut, summary="A draw: matches, results offered, currencies")
async def get_draw(draw_id: str, services: ServicesDep) -> DrawOut:
    return DrawOut.of(await services.queries.draw(draw_id))


@router.get(
    "/draws/{draw_id}/statistics",
    response_model=StatisticsOut,
    summary="Bets and amounts per match and result (T-2.6)",
    description="While bets are taken: refreshed at most once a second. Once `final`: the final count and pool.",
)
async def statistics(draw_id: str, services: ServicesDep) -> StatisticsOut:
    return StatisticsOut.of(await services.statistics.view(draw_id))


@router.get(
    "/draws/{draw_id}/files/draw.json",
    summary="The draw file draw-<id>.json (T-8.2)",
    response_class=JSONResponse,
    responses={200: {"content": {"application/json": {}}}},
)
async def draw_file(draw_id: str, services: ServicesDep) -> JSONResponse:
    name, document = await services.publication.draw_file(draw_id)
    return JSONResponse(document, headers=_attachment(name))


@router.get(
    "/draws/{draw_id}/files/bets.csv",
    summary="The bet file bets-<id>.csv (T-8.3)",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}},
)
async def bets_file(draw_id: str, services: ServicesDep) -> Response:
    name, text = await services.publication.bets_file(draw_id)
    return Response(text, media_type="text/csv; charset=utf-8", headers=_attachment(name))


@router.get(
    "/draws/{draw_id}/settlement",
    summary="The settlement as the verifier prints it (T-8.4)",
    response_model=dict[str, Any],
)
async def settlement(draw_id: str, services: ServicesDep) -> dict[str, Any]:
    return await services.publication.settlement_report(draw_id)


@router.get("/jackpot", response_model=JackpotOut, summary="The jackpot waiting for the next draw (T-4.1)")
async def jackpot(services: ServicesDep) -> JackpotOut:
    return JackpotOut(jackpot_usd=usd_text(await services.queries.jackpot_pot()))


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}
