"""Money steps: each wallet call the director makes, recorded before it is made.

A step is `pending` until the wallet answers, then `done` (posted) or `refused` (a definite refusal such as
`insufficient_funds`). The key is derived from what the step is for (`td:<tournament>:<kind>:<player>:<n>`),
never random, so a step made again — after a timeout, a crash, a restart — is the same request to the wallet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import money_steps
from tournament_director.adapters.wallet import WalletRequest


class StepKind(StrEnum):
    """What a step pays for; stored as its value, and the key to the handler that completes it."""

    BUY_IN = "buy_in"
    TICKET_ENTRY = "ticket_entry"
    REBUY = "rebuy"
    ADDON = "addon"
    PURCHASE_REFUND = "purchase_refund"
    UNREGISTER_REFUND = "unregister_refund"
    SANCTION_REFUND = "sanction_refund"
    EXCLUSION_REFUND = "exclusion_refund"  # the player excluded themself (issue 17)
    LATE_REFUND = "late_refund"
    SPONSORED_ENTRY = "sponsored_entry"
    OVERLAY = "overlay"
    PAYOUTS = "payouts"
    BONUS_PRIZES = "bonus_prizes"
    REFUNDS = "refunds"
    TAX = "tax"
    JACKPOT_AWARD = "jackpot_award"


class StepStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    REFUSED = "refused"


@dataclass(frozen=True)
class MoneyStep:
    step_id: int
    tournament_id: str
    player_id: str | None
    kind: StepKind
    idempotency_key: str
    client_key: str | None
    request: WalletRequest
    status: StepStatus
    attempts: int
    answer: Any
    refusal_code: str | None
    created_at: datetime
    updated_at: datetime


async def record(
    session: AsyncSession,
    *,
    tournament_id: str,
    kind: StepKind,
    key: str,
    request: WalletRequest,
    now: datetime,
    player_id: str | None = None,
    client_key: str | None = None,
) -> MoneyStep:
    """A new pending step, as recorded (its driver needs not read it back)."""
    result = await session.execute(
        money_steps.insert().values(
            tournament_id=tournament_id,
            player_id=player_id,
            kind=kind,
            idempotency_key=f"td:{key}",
            client_key=client_key,
            path=request.path,
            body=json.dumps(request.body, sort_keys=True),
            status=StepStatus.PENDING.value,
            attempts=0,
            created_at=now,
            updated_at=now,
        )
    )
    (step_id,) = result.inserted_primary_key  # type: ignore[attr-defined]
    return MoneyStep(
        step_id=int(step_id),
        tournament_id=tournament_id,
        player_id=player_id,
        kind=kind,
        idempotency_key=f"td:{key}",
        client_key=client_key,
        request=request,
        status=StepStatus.PENDING,
        attempts=0,
        answer=None,
        refusal_code=None,
        created_at=now,
        updated_at=now,
    )


async def get(session: AsyncSession, step_id: int, *, lock: bool = False) -> MoneyStep | None:
    query = select(money_steps).where(money_steps.c.step_id == step_id)
    row = (await session.execute(query.with_for_update() if lock else query)).mappings().first()
    return None if row is None else _step(row)


async def find(
    session: AsyncSession, tournament_id: str, kind: StepKind, player_id: str, client_key: str
) -> MoneyStep | None:
    """The step a caller's Idempotency-Key already asked for."""
    query = select(money_steps).where(
        money_steps.c.tournament_id == tournament_id,
        money_steps.c.kind == kind,
        money_steps.c.player_id == player_id,
        money_steps.c.client_key == client_key,
    )
    row = (await session.execute(query)).mappings().first()
    return None if row is None else _step(row)


async def of_tournament(
    session: AsyncSession, tournament_id: str, kinds: Sequence[StepKind] | None = None
) -> list[MoneyStep]:
    query = select(money_steps).where(money_steps.c.tournament_id == tournament_id).order_by(money_steps.c.step_id)
    if kinds is not None:
        query = query.where(money_steps.c.kind.in_(kinds))
    return [_step(row) for row in (await session.execute(query)).mappings()]


async def pending(session: AsyncSession) -> list[MoneyStep]:
    query = select(money_steps).where(money_steps.c.status == StepStatus.PENDING.value).order_by(money_steps.c.step_id)
    return [_step(row) for row in (await session.execute(query)).mappings()]


async def pending_for_player(session: AsyncSession, tournament_id: str, player_id: str) -> list[MoneyStep]:
    query = select(money_steps).where(
        money_steps.c.tournament_id == tournament_id,
        money_steps.c.player_id == player_id,
        money_steps.c.status == StepStatus.PENDING.value,
    )
    return [_step(row) for row in (await session.execute(query)).mappings()]


async def settle(session: AsyncSession, step: MoneyStep, status: StepStatus, answer: Any, now: datetime) -> MoneyStep:
    """The step answered; returns it as it now stands."""
    refusal = answer.get("code") if status is StepStatus.REFUSED and isinstance(answer, dict) else None
    await session.execute(
        update(money_steps)
        .where(money_steps.c.step_id == step.step_id)
        .values(status=status.value, answer=json.dumps(answer), refusal_code=refusal, updated_at=now)
    )
    return replace(step, status=status, answer=answer, refusal_code=refusal, updated_at=now)


async def count_attempt(session: AsyncSession, step_id: int, now: datetime) -> None:
    await session.execute(
        update(money_steps)
        .where(money_steps.c.step_id == step_id)
        .values(attempts=money_steps.c.attempts + 1, updated_at=now)
    )


def _step(row: object) -> MoneyStep:
    data = dict(row)  # type: ignore[call-overload]
    return MoneyStep(
        step_id=data["step_id"],
        tournament_id=data["tournament_id"],
        player_id=data["player_id"],
        kind=StepKind(data["kind"]),
        idempotency_key=data["idempotency_key"],
        client_key=data["client_key"],
        request=WalletRequest(data["path"], json.loads(data["body"])),
        status=StepStatus(data["status"]),
        attempts=data["attempts"],
        answer=None if data["answer"] is None else json.loads(data["answer"]),
        refusal_code=data["refusal_code"],
        created_at=data["created_at"],
        updated_at=data["updated_at"],
    )


async def by_key(session: AsyncSession, key: str) -> MoneyStep | None:
    """The step recorded with `key` (as given to `record`)."""
    row = (
        (await session.execute(select(money_steps).where(money_steps.c.idempotency_key == f"td:{key}")))
        .mappings()
        .first()
    )
    return None if row is None else _step(row)
