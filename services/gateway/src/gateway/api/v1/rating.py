"""Ratings and conduct, relayed to the rating service: the public leaderboard (P-11.5: nicknames only), a
player's rating, reports of offences, and the staff's sanctions and appeals (P-12). The rating service applies
its own rules on who may see and decide what; the gateway passes the caller as `X-Principal-*`.
Partner systems take no part in conduct matters."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request, Response, status

from gateway.api.access import PlayerInScope, allow, allow_on_player, public
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay, segment
from gateway.api.v1 import API_V1
from gateway.api.v1.proxy_schemas import LEADERBOARD, SANCTION, answers, dict_body_examples
from gateway.api.v1.time_queries import DAY_RANGE, Day
from gateway.domain.roles import Principal, Role

router = APIRouter(prefix=API_V1, tags=["rating and conduct"], responses=RELAYED)

People = Annotated[Principal, Depends(allow(Role.PLAYER, Role.OPERATOR, Role.ADMIN))]
Staff = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]
Player = Annotated[Principal, Depends(allow(Role.PLAYER))]
OnPlayer = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.PARTNER, Role.OPERATOR, Role.ADMIN))]
OnOwnOrManaged = Annotated[PlayerInScope, Depends(allow_on_player(Role.PLAYER, Role.OPERATOR, Role.ADMIN))]
OnManaged = Annotated[PlayerInScope, Depends(allow_on_player(Role.OPERATOR, Role.ADMIN))]

Gravity = Literal["minor", "serious", "very_serious"]
ReportStatus = Literal["open", "sanctioned", "dismissed"]


async def _rating(request: Request, principal: Principal, method: str, path: str, **options: Any) -> Response:
    return await relay(clients_of(request).rating, method, path, principal=principal, **options)


@router.get(
    "/leaderboard",
    dependencies=[Depends(public())],
    summary="The public leaderboard: rank, nickname, rating and tier (P-11.5)",
    description="The standings of the last closed day, or with `standing=now` the standing as of now (tiers "
    "provisional until `tiers_recomputed_at`); `tier_label` gives the Italian tier name with the "
    "English one beside it.",
    responses=answers(LEADERBOARD),
)
async def leaderboard(
    request: Request,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    size: Annotated[int, Query(ge=1, le=200)] = 50,
    standing: Annotated[
        Literal["closed", "now"] | None, Query(description="`now`: the standing as of now (issue 15); default closed.")
    ] = None,
) -> Response:
    params: dict[str, Any] = {"page": page, "size": size}
    if standing is not None:
        params["standing"] = standing
    return await relay(clients_of(request).rating, "GET", "/v1/leaderboard", params=params)


@router.get("/players/{player_id}/rating", summary="The player's rating, tier in force, rank and award history")
async def player_rating(
    request: Request,
    scope: OnPlayer,
    day: Annotated[Day | None, Query(description=f"Any day {DAY_RANGE}; default today.")] = None,
) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/rating"
    params = {"day": day.isoformat() if day else None}
    return await relay(clients_of(request).rating, "GET", path, params=params)


@router.get("/players/{player_id}/sanctions", summary="The player's sanctions with their appeals")
async def player_sanctions(request: Request, scope: OnOwnOrManaged) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/sanctions"
    return await _rating(request, scope.principal, "GET", path)


@router.get(
    "/players/{player_id}/conduct",
    summary="Staff: the player's conduct record, with a suggested sanction (advisory, P-12.2)",
)
async def player_conduct(
    request: Request,
    scope: OnManaged,
    offence: Annotated[str | None, Query(max_length=40)] = None,
    gravity: Annotated[Gravity | None, Query()] = None,
    context: Annotated[Literal["during_tournament", "after_tournament"] | None, Query()] = None,
) -> Response:
    path = f"/internal/v1/players/{segment(scope.player.id)}/conduct"
    params = {"offence": offence, "gravity": gravity, "context": context}
    return await _rating(request, scope.principal, "GET", path, params=params)


@router.post("/reports", status_code=status.HTTP_201_CREATED, summary="Report an offence (P-12.1, P-12.2)")
async def file_report(
    request: Request,
    principal: People,
    report: Annotated[
        dict[str, Any],
        Body(
            openapi_examples=dict_body_examples(
                "Insults in the chat",
                {"offender_id": "3f2a…", "offence": "offensive_language", "description": "Insulted me at table 4"},
            )
        ),
    ],
) -> Response:
    return await _rating(request, principal, "POST", "/internal/v1/reports", json=report)


@router.get("/reports", summary="Staff: reports, oldest first")
async def reports(
    request: Request,
    principal: Staff,
    status_: Annotated[ReportStatus | None, Query(alias="status")] = None,
    offender_id: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    params = {"status": status_, "offender_id": offender_id, "limit": limit}
    return await _rating(request, principal, "GET", "/internal/v1/reports", params=params)


@router.post("/reports/{report_id}/dismissal", summary="Staff: no offence found; close the report")
async def dismiss_report(report_id: str, request: Request, principal: Staff) -> Response:
    return await _rating(request, principal, "POST", f"/internal/v1/reports/{segment(report_id)}/dismissal")


@router.post(
    "/sanctions",
    status_code=status.HTTP_201_CREATED,
    summary="Staff: impose a sanction (P-12.3, P-12.4)",
    description="Bans and chat bans take effect at the gateway as soon as the decision is published.",
    responses=answers(SANCTION, status=201),
)
async def decide_sanction(
    request: Request,
    principal: Staff,
    decision: Annotated[
        dict[str, Any],
        Body(
            openapi_examples=dict_body_examples(
                "A one-day chat ban",
                {
                    "report_ids": ["r-12"],
                    "kind": "temporary_chat_ban",
                    "context": "during_tournament",
                    "offence": "offensive_language",
                    "gravity": "minor",
                    "tournament_id": "snd-9f2c",
                    "duration": "P1D",
                    "reason": "Insults in the chat",
                },
            )
        ),
    ],
) -> Response:
    return await _rating(request, principal, "POST", "/internal/v1/sanctions", json=decision)


@router.get("/sanctions/{sanction_id}", summary="A sanction: the sanctioned player's own, or their staff's")
async def sanction(sanction_id: str, request: Request, principal: People) -> Response:
    return await _rating(request, principal, "GET", f"/internal/v1/sanctions/{segment(sanction_id)}")


@router.post(
    "/sanctions/{sanction_id}/appeal",
    status_code=status.HTTP_201_CREATED,
    summary="Appeal your sanction, once (it stays in force until decided)",
)
async def appeal(
    sanction_id: str,
    request: Request,
    principal: Player,
    body: Annotated[
        dict[str, Any],
        Body(openapi_examples=dict_body_examples("Grounds", {"grounds": "It was a joke between friends"})),
    ],
) -> Response:
    return await _rating(request, principal, "POST", f"/internal/v1/sanctions/{segment(sanction_id)}/appeal", json=body)


@router.post("/sanctions/{sanction_id}/appeal/decision", summary="Staff: decide an appeal")
async def decide_appeal(
    sanction_id: str,
    request: Request,
    principal: Staff,
    body: Annotated[
        dict[str, Any], Body(openapi_examples=dict_body_examples("Upheld", {"outcome": "sanction_upheld"}))
    ],
) -> Response:
    path = f"/internal/v1/sanctions/{segment(sanction_id)}/appeal/decision"
    return await _rating(request, principal, "POST", path, json=body)
