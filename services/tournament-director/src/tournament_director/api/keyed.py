"""Routes whose Idempotency-Key names one request of its caller: the request runs once and every repeat gets
its first answer, marked `Idempotent-Replayed: true` (service/idempotent.py)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from platform_kit.idempotency import keyed_answer

from tournament_director.domain.idempotency import fingerprint
from tournament_director.service import idempotent
from tournament_director.service.context import Director
from tournament_director.service.idempotent import Command
from tournament_director.service.principals import Principal


async def answer_once(
    director: Director,
    principal: Principal,
    key: str | None,
    operation: str,
    fields: dict[str, Any],
    command: Command,
    *,
    status: int = 200,
) -> JSONResponse:
    """Answer `command()` with `status`, once per key: `operation` and `fields` (every path parameter and body
    field that decides what the request does) are the request the key is bound to. Without a key (where the
    route allows none) the command simply runs. Past `keyed_requests_in_flight` of them at once: 503
    `director_busy`, before the key is claimed."""
    async with director.keyed_requests.admit():
        if key is None:
            return JSONResponse(await command(), status_code=status)
        request = fingerprint(operation, fields)
        outcome = await idempotent.run_once(director, principal.key_scope, key, request, status, command)
    return keyed_answer(outcome.status, outcome.body, replayed=outcome.replayed)
