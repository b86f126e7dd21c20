"""Public reads: what anyone at or watching a table may see (no hidden card, P-1.4)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse
from platform_kit.app import ReadingDep

from table_engine.service import queries
from table_engine.service.queries import HandList, TableView

router = APIRouter(prefix="/v1", tags=["tables"])

PHH_MEDIA_TYPE = "application/toml"


@router.get("/tables/{table_id}", summary="A table's public state: seats, stacks, button, pot, board, to act, level")
async def get_table(session: ReadingDep, table_id: str) -> TableView:
    return await queries.table_view(session, table_id)


@router.get("/tables/{table_id}/hands", summary="The table's hands, newest first")
async def list_hands(
    session: ReadingDep,
    table_id: str,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(description="`next_before` of the previous page.")] = None,
) -> HandList:
    return await queries.hand_list(session, table_id, limit=limit, before=before)


@router.get(
    "/tournaments/{tournament_id}/hands",
    summary="A tournament's hands (every table's), newest first; optionally only those a player was dealt in",
)
async def list_tournament_hands(
    session: ReadingDep,
    tournament_id: str,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(description="`next_before` of the previous page.")] = None,
    player_id: Annotated[
        str | None,
        Query(
            description=f"Only the hands this player was dealt in, among the next {queries.PLAYER_SCAN} at most: "
            "a page may hold fewer than `limit` with `next_before` set (read on)."
        ),
    ] = None,
) -> HandList:
    return await queries.tournament_hands(session, tournament_id, limit=limit, before=before, player_id=player_id)


@router.get(
    "/hands/{hand_id}/phh",
    summary="Everyone's copy of a hand history (PHH): only the cards shown at the table",
    response_class=PlainTextResponse,
    responses={200: {"content": {PHH_MEDIA_TYPE: {}}}},
)
async def public_history(session: ReadingDep, hand_id: str) -> PlainTextResponse:
    text = await queries.history(session, hand_id, None)
    return phh_response(text, hand_id)


def phh_response(text: str, hand_id: str) -> PlainTextResponse:
    return PlainTextResponse(
        text,
        media_type=PHH_MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="{hand_id}.phh"'},
    )
