"""Driving money steps: derive the key → record the step → call the wallet → apply the answer and commit.

The steps are the kit's outgoing calls (platform_kit.outgoing_calls: recorded before they are made, made again
with the same key and request until answered, each answer applied once under the call's lock together with its
completion). What is the director's: which use case completes each kind of step (`Director.completions`), which
steps a request drives itself, and how a refusal reads to the player.

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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import timedelta

from platform_kit.db import after_commit
from platform_kit.errors import ProblemError, Unavailable
from platform_kit.keyed_batches import KeyedBatches
from platform_kit.outgoing_calls import OutgoingCall
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps
from tournament_director.adapters.http import Answer
from tournament_director.adapters.money_steps import MoneyStep, StepKind, StepStatus, step_of
from tournament_director.service.context import Director

log = logging.getLogger(__name__)

#: Steps that a REST request drives itself and answers with.
INTERACTIVE = frozenset(
    {StepKind.BUY_IN, StepKind.TICKET_ENTRY, StepKind.REBUY, StepKind.ADDON, StepKind.UNREGISTER_REFUND}
)


#: A batch's answer for one step: the step as it stands, and what its completion returned (None when another
#: driver had applied the answer).
Driven = tuple[MoneyStep, object]
#: Completion of several steps' answers of one tournament, in one unit of work: one outcome per step, in order.
BatchCompletion = Callable[[Director, AsyncSession, Sequence[tuple[MoneyStep, Answer]]], Awaitable[Sequence[object]]]


async def drive(director: Director, step: MoneyStep) -> MoneyStep:
    """Make the step's wallet call and apply the answer; the step as it stands afterwards (still pending when
    the wallet could not be reached). `step` is the step as its caller recorded or read it: the answer is
    applied under the step's lock, once, whoever else drives it meanwhile."""
    if step.status is not StepStatus.PENDING:
        return step
    made = await director.calls.make(step.call, lambda uow, call, answer: _complete(director, uow, call, answer))
    if made.status is StepStatus.PENDING:
        director.metrics.money_steps.labels(step.kind, "unavailable").inc()
    return step_of(made)


async def drive_in_batches(
    director: Director, step: MoneyStep, answers: KeyedBatches[tuple[MoneyStep, Answer], Driven]
) -> Driven:
    """`drive`, the answer applied in a batch with the other answers of its tournament that came in meanwhile
    (`answers`, whose run is `apply_answers`); and what its completion returned."""
    if step.status is not StepStatus.PENDING:
        return step, None
    answer = await director.calls.send(step.call)
    if answer is None:
        director.metrics.money_steps.labels(step.kind, "unavailable").inc()
        return replace(step, attempts=step.attempts + 1), None
    return await answers.submit(step.tournament_id, (step, answer))


async def apply_answers(
    director: Director, answered: Sequence[tuple[MoneyStep, Answer]], complete: BatchCompletion
) -> list[Driven]:
    """The run of a batch of `drive_in_batches`: the answers applied in ONE unit of work, each once (the
    kit's `apply_all`), by `complete`."""
    outcomes: dict[int, object] = {}

    async def complete_all(uow: UnitOfWork, calls: Sequence[tuple[OutgoingCall, Answer]]) -> None:
        steps = [(step_of(call), answer) for call, answer in calls]
        for step, answer in steps:
            _log_refusal(step, answer)
        for (step, _), outcome in zip(steps, await complete(director, uow.session, steps), strict=True):
            outcomes[step.step_id] = outcome
            after_commit(uow.session, director.metrics.money_steps.labels(step.kind, step.status.value).inc)

    made = await director.calls.apply_all([(step.call, answer) for step, answer in answered], complete_all)
    return [(step_of(call), outcomes.get(call.call_id)) for call in made]


async def _complete(director: Director, uow: UnitOfWork, call: OutgoingCall, answer: Answer) -> None:
    """The step's answer, applied by its kind's use case in the unit of work that marks the step answered."""
    step = step_of(call)
    _log_refusal(step, answer)
    await director.completions[step.kind](director, uow.session, step, answer)
    after_commit(uow.session, director.metrics.money_steps.labels(step.kind, step.status.value).inc)


def _log_refusal(step: MoneyStep, answer: Answer) -> None:
    if not answer.ok:
        # A player's refused payment is ordinary (insufficient funds); a refused settlement step is a bug.
        expected = step.kind in INTERACTIVE and answer.code != "idempotency_key_reused"
        log.log(
            logging.INFO if expected else logging.ERROR,
            "wallet refused a money step",
            extra={"key": step.idempotency_key, "code": answer.code},
        )


async def drive_waiting(director: Director) -> None:
    """One pass of the money worker: every settlement step, and every request's step left behind."""
    stale_before = director.now() - timedelta(seconds=director.settings.money_retry_seconds)

    def due(call: OutgoingCall) -> bool:
        return StepKind(call.operation) not in INTERACTIVE or call.updated_at <= stale_before  # else its request's

    def holds_back(call: OutgoingCall) -> bool:
        return StepKind(call.operation) not in INTERACTIVE  # an overlay funds the payouts after it

    await director.calls.recover(
        lambda uow, call, answer: _complete(director, uow, call, answer), due=due, holds_back=holds_back
    )


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
    async with director.runtime.units.reading() as session:
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
