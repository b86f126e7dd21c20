"""Runs a request at most once per (caller, Idempotency-Key), and answers every repeat with its first answer.

The wallet claims the key, runs the command and stores its answer in one transaction. A registration cannot:
it spans several transactions and calls to the rating service and the wallet. So the key is claimed first, in
a transaction of its own (`claim`, a random token), the request runs, and its answer is stored under the key
only by the request still holding that claim.

- The same key with another request (another fingerprint) is refused: 409 `idempotency_key_reused`.
- A repeat while the first is running waits for its answer (`idempotency_wait_seconds`), then replays it; if
  the answer is still not in: 409 `idempotency_key_in_flight`, to be retried with the same key. It is woken by
  the first when both run in this process, and looks again at the key (a transaction) with a growing interval
  when the first runs in another replica.
- A claim left unanswered for `money_retry_seconds` belonged to a request that died: the next repeat takes it
  over and runs the request again. That is safe because every step underneath is idempotent by itself (the
  seat held once per player, the money steps' derived wallet keys); if the first request answers after all,
  only one of the two answers is stored, and the other request replays it.
- Answers that say "try again" — 5xx (the wallet or rating unreachable) and `RETRY_LATER` — are not kept: the
  key is released, so the repeat runs the request again and gets its real outcome. Every other refusal is the
  request's answer and is kept, as the wallet keeps its refusals: a new attempt takes a new key.

Answered keys are kept for `PLATFORM_IDEMPOTENCY_RETENTION_HOURS`, then purged (`platform_kit.key_retention`,
started in `bootstrap`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from platform_kit.errors import Conflict, ProblemError, problem

from tournament_director.adapters import idempotency
from tournament_director.adapters.idempotency import StoredKey
from tournament_director.service.context import Director

#: Conflicts that pass with time: the same request later gets another answer.
RETRY_LATER = frozenset({"payment_in_progress", "purchase_in_progress"})
FIRST_POLL_SECONDS = 0.02
LONGEST_POLL_SECONDS = 0.25

Command = Callable[[], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Outcome:
    status: int
    body: Any
    replayed: bool


async def run_once(
    director: Director, scope: str, key: str, fingerprint: str, status: int, command: Command
) -> Outcome:
    """Run `command()` (answered with `status` and its body) once for (`scope`, `key`); see the module doc."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + director.settings.idempotency_wait_seconds
    poll = FIRST_POLL_SECONDS
    while True:
        token, found = await _claim(director, scope, key, fingerprint)
        if token is not None:
            running = director.requests_running.setdefault((scope, key), asyncio.Event())
            try:
                return await _execute(director, scope, key, fingerprint, token, status, command)
            finally:
                director.requests_running.pop((scope, key), None)
                running.set()
        if found is None:
            continue  # released or purged since it was found taken: it can be claimed again
        if found.status is not None:
            return _replay(director, found)
        remaining = deadline - loop.time()
        if remaining <= 0:  # the first request is still running
            director.metrics.idempotent_requests.labels("in_flight").inc()
            raise Conflict(
                "idempotency_key_in_flight",
                "A request with this Idempotency-Key is still being answered; repeat it with the same key.",
                headers={"Retry-After": "1"},  # a "come back", like a 503: clients wait it out and repeat
                idempotency_key=key,
            )
        running_here = director.requests_running.get((scope, key))
        if running_here is not None:
            # Run by this process: woken when it is over, without a transaction per look (under a retry storm
            # the looks of hundreds of repeats would take the connections the first requests need to finish).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await running_here.wait()
            continue
        await asyncio.sleep(min(poll, remaining))  # run by another replica: look again, less and less often
        poll = min(2 * poll, LONGEST_POLL_SECONDS)


async def _claim(director: Director, scope: str, key: str, fingerprint: str) -> tuple[str | None, StoredKey | None]:
    """The new claim's token, or None and the key as stored (None when it is gone meanwhile)."""
    token = uuid.uuid4().hex
    now = director.now()
    async with director.unit() as uow:
        if await idempotency.claim(uow.session, scope, key, fingerprint, token, now):
            return token, None
        found = await idempotency.stored(uow.session, scope, key)
        if found is not None and found.fingerprint != fingerprint:
            director.metrics.idempotent_requests.labels("key_reused").inc()
            raise Conflict(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different request.",
                idempotency_key=key,
            )
        abandoned = now - timedelta(seconds=director.settings.money_retry_seconds)
        if found is None or found.status is not None or found.claimed_at > abandoned:
            return None, found
        # Unanswered for so long that its request died: this one runs it again.
        taken = await idempotency.take_over(uow.session, scope, key, found.claim, token, now)
        return (token, None) if taken else (None, found)


async def _execute(
    director: Director, scope: str, key: str, fingerprint: str, token: str, status: int, command: Command
) -> Outcome:
    try:
        outcome = Outcome(status, await command(), replayed=False)
    except ProblemError as error:
        if error.status >= 500 or error.code in RETRY_LATER:
            await _release(director, scope, key, token)
            raise
        outcome = Outcome(error.status, _problem_body(error), replayed=False)
    except Exception:
        await _release(director, scope, key, token)
        raise
    async with director.unit() as uow:
        if await idempotency.complete(uow.session, scope, key, token, outcome.status, outcome.body):
            director.metrics.idempotent_requests.labels("executed").inc()
            return outcome
        first = await idempotency.stored(uow.session, scope, key)
    # The claim was taken over (this request was slow, not dead) and the other request answered first.
    if first is not None and first.status is not None and first.fingerprint == fingerprint:
        return _replay(director, first)
    return outcome


async def _release(director: Director, scope: str, key: str, token: str) -> None:
    director.metrics.idempotent_requests.labels("released").inc()
    async with director.unit() as uow:
        await idempotency.release(uow.session, scope, key, token)


def _replay(director: Director, found: StoredKey) -> Outcome:
    assert found.status is not None
    director.metrics.idempotent_requests.labels("replayed").inc()
    return Outcome(found.status, found.body, replayed=True)


def _problem_body(error: ProblemError) -> Any:
    """The problem+json body the kit's handler would answer `error` with."""
    return json.loads(bytes(problem(error.status, error.code, error.message, **error.details).body))
