"""Routes whose Idempotency-Key names one request of its caller: the request runs once and every repeat gets
its first answer, marked `Idempotent-Replayed: true` (service/idempotent.py).

A keyed request is answered within `keyed_request_deadline_seconds`: past it, 503 `outcome_pending` with
Retry-After, while the request runs on to its end apart from its caller (the seat it holds, the wallet call it
waits for) and keeps its answer under the key — or releases the key when its answer is "try again", the money
step being left to the money worker. Either way the same request with the same key learns the outcome, and is
never carried out twice. The deadline sits below the gateway's downstream timeout, so a caller gets this answer
instead of a 504 after the money may have moved."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.responses import JSONResponse
from platform_kit.errors import Unavailable
from platform_kit.idempotency import keyed_answer

from tournament_director.domain.idempotency import fingerprint
from tournament_director.service import idempotent
from tournament_director.service.context import Director
from tournament_director.service.idempotent import Command, Outcome
from tournament_director.service.principals import Principal

log = logging.getLogger(__name__)


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
    `director_busy`, before the key is claimed; past the deadline: 503 `outcome_pending` (module doc)."""
    if key is None:
        async with director.keyed_requests.admit():
            return JSONResponse(await command(), status_code=status)
    request = fingerprint(operation, fields)

    async def admitted() -> Outcome:
        # Admitted for as long as it runs, also after its caller was answered `outcome_pending`.
        async with director.keyed_requests.admit():
            return await idempotent.run_once(director, principal.key_scope, key, request, status, command)

    outcome = await _within_deadline(director, admitted())
    return keyed_answer(outcome.status, outcome.body, replayed=outcome.replayed)


async def _within_deadline(director: Director, work: Coroutine[Any, Any, Outcome]) -> Outcome:
    """`work`'s outcome, or 503 `outcome_pending` once the deadline passed with `work` still running on. Neither
    the deadline nor the caller going away cancels it: stopped between two of its steps, it would leave its key
    claimed until `money_retry_seconds` and its caller waiting for nothing."""
    running = asyncio.create_task(work)
    director.outliving.add(running)  # the event loop keeps only a weak reference to a task
    running.add_done_callback(_forget(director))
    try:
        async with asyncio.timeout(director.settings.keyed_request_deadline_seconds):
            return await asyncio.shield(running)
    except TimeoutError:
        director.metrics.idempotent_requests.labels("outcome_pending").inc()
        raise Unavailable(
            "outcome_pending",
            "The operation is taking longer than usual; send the same request with the same Idempotency-Key to "
            "learn its outcome (it is never carried out twice).",
        ) from None


def _forget(director: Director) -> Callable[[asyncio.Task[Outcome]], None]:
    def forget(task: asyncio.Task[Outcome]) -> None:
        director.outliving.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Its caller was answered already or got the same error; nothing is lost (the key was released).
            log.info("a keyed request ended in an error", exc_info=task.exception())

    return forget
