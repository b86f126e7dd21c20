"""Driving money steps: derive the key → record the step → call the wallet → apply the answer and commit.

The step is committed before the wallet is called, and its answer is applied in the transaction that marks it
done, so whatever dies in between (the wallet call, the process, the database connection), the step is still
pending and is made again with the same idempotency key: the wallet posts it once and answers the same.

- Steps a request waits for (buy-ins, purchases, unregistration refunds) are driven by that request; the money
  worker takes them over only once they are `money_retry_seconds` old (the request died or timed out).
- Steps of a settlement (overlays, payouts, refunds, tax, jackpot awards) are the worker's from the start. A
  tournament's settlement steps are driven in the order recorded — an overlay before the payouts it funds —
  and a step still unanswered holds back the ones after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from platform_kit.errors import ProblemError, Unavailable
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps
from tournament_director.adapters.http import Answer, ServiceUnavailable
from tournament_director.adapters.money_steps import MoneyStep, StepKind, StepStatus
from tournament_director.service.context import Director

log = logging.getLogger(__name__)

#: Steps that a REST request drives itself and answers with.
INTERACTIVE = frozenset(
    {StepKind.BUY_IN, StepKind.TICKET_ENTRY, StepKind.REBUY, StepKind.ADDON, StepKind.UNREGISTER_REFUND}
)


async def drive(director: Director, step: MoneyStep) -> MoneyStep:
    """Make the step's wallet call and apply the answer; the step as it stands afterwards (still pending when
    the wallet could not be reached). `step` is the step as its caller recorded or read it: the answer is
    applied under the step's lock, once, whoever else drives it meanwhile."""
    if step.status is not StepStatus.PENDING:
        return step
    try:
        answer = await director.wallet.send(step.request, step.idempotency_key)
    except ServiceUnavailable as error:
        log.warning(
            "wallet call failed; it will be made again", extra={"key": step.idempotency_key, "error": str(error)}
        )
        async with director.unit() as uow:
            await money_steps.count_attempt(uow.session, step.step_id, director.now())
        director.metrics.money_steps.labels(step.kind, "unavailable").inc()
        return step
    async with director.unit() as uow:
        current = await money_steps.get(uow.session, step.step_id, lock=True)
        assert current is not None, f"no money step {step.step_id}"
        if current.status is not StepStatus.PENDING:
            return current  # another driver applied the same answer first
        settled = await _apply(director, uow.session, current, answer)
    director.metrics.money_steps.labels(step.kind, settled.status.value).inc()
    return settled


async def _apply(director: Director, session: AsyncSession, step: MoneyStep, answer: Answer) -> MoneyStep:
    status = StepStatus.DONE if answer.ok else StepStatus.REFUSED
    if not answer.ok:
        # A player's refused payment is ordinary (insufficient funds); a refused settlement step is a bug.
        expected = step.kind in INTERACTIVE and answer.code != "idempotency_key_reused"
        log.log(
            logging.INFO if expected else logging.ERROR,
            "wallet refused a money step",
            extra={"key": step.idempotency_key, "code": answer.code},
        )
    settled = await money_steps.settle(session, step, status, answer.body, director.now())
    await director.completions[step.kind](director, session, step, answer)
    return settled


async def drive_waiting(director: Director) -> None:
    """One pass of the money worker: every settlement step, and every request's step left behind."""
    now = director.now()
    async with director.runtime.db.sessions() as session:
        waiting = await money_steps.pending(session)
    stale_before = now - timedelta(seconds=director.settings.money_retry_seconds)
    by_tournament: dict[str, list[MoneyStep]] = {}
    for step in waiting:
        by_tournament.setdefault(step.tournament_id, []).append(step)
    for steps in by_tournament.values():
        await _drive_in_order(director, steps, stale_before)


async def _drive_in_order(director: Director, steps: Sequence[MoneyStep], stale_before: datetime) -> None:
    for step in steps:
        interactive = step.kind in INTERACTIVE
        if interactive and step.updated_at > stale_before:
            continue  # its request is still driving it
        try:
            driven = await drive(director, step)
        except Exception:
            # Its answer could not be applied (a bug): it stays pending and is tried again at the next pass.
            log.exception("money step failed", extra={"key": step.idempotency_key})
            return
        if driven.status is StepStatus.PENDING and not interactive:
            return  # the wallet is unreachable: what follows waits (an overlay funds the payouts after it)


async def run_worker(director: Director) -> None:
    """The money worker (a background task): a pass whenever steps are recorded, and every clock interval."""
    while True:
        director.money_waiting.clear()
        await drive_waiting(director)
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation arriving with the
        # timeout, and the service's stop would wait for this loop forever.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(director.settings.clock_interval_seconds):
                await director.money_waiting.wait()


async def step_by_key(director: Director, key: str) -> MoneyStep | None:
    async with director.runtime.db.sessions() as session:
        return await money_steps.by_key(session, key)


def raise_unless_done(step: MoneyStep) -> None:
    """A request's own step: posted → go on; refused → the wallet's refusal; unanswered → 503, and the step is
    completed later (by a retry of the request or the worker) with the same key."""
    if step.status is StepStatus.REFUSED:
        raise refusal(Answer(409, step.answer))
    if step.status is StepStatus.PENDING:
        raise Unavailable(
            "wallet_unavailable",
            "The wallet did not answer; the payment will be completed automatically — repeat the request to see it.",
        )


def refusal(answer: Answer) -> ProblemError:
    """The wallet's refusal, passed on with its code and status (e.g. 409 `insufficient_funds`)."""
    status = answer.body.get("status", answer.status) if isinstance(answer.body, dict) else answer.status
    status = int(status) if 400 <= int(status) < 500 else 409
    details = (
        {k: v for k, v in answer.body.items() if k not in ("type", "title", "status", "code")}
        if isinstance(answer.body, dict)
        else {}
    )
    return ProblemError(answer.code, answer.message, status=status, **details)
