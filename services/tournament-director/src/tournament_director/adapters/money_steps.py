"""Money steps: each wallet call the director makes, recorded before it is made — the kit's outgoing calls
(platform_kit.outgoing_calls, table `outgoing_calls`: its key, request, status, answer and attempts) with the
director's own columns: whom a step is for (its tournament is the call's group, its kind the call's operation)
and the caller's Idempotency-Key of a purchase.

A step is `pending` until the wallet answers, then `done` (posted) or `refused` (a definite refusal such as
`insufficient_funds`). The key is derived from what the step is for (`td:<tournament>:<kind>:<player>:<n>`),
never random, so a step made again — after a timeout, a crash, a restart — is the same request to the wallet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from platform_kit.outgoing_calls import CallStatus, CallTable, NewCall, OutgoingCall
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters.orm import outgoing_calls
from tournament_director.adapters.wallet import WalletRequest

#: Every step is a call to the wallet.
WALLET = "wallet"
CALLS = CallTable(outgoing_calls)
_c = outgoing_calls.c

#: A step's status is its call's.
StepStatus = CallStatus


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
    #: The kit's call that makes it.
    call: OutgoingCall = field(repr=False, compare=False)


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
    (step,) = await record_all(
        session, [NewStep(tournament_id, kind, key, request, player_id=player_id, client_key=client_key)], now
    )
    return step


@dataclass(frozen=True)
class NewStep:
    """A step to record (`record_all`): `record`'s arguments but the time."""

    tournament_id: str
    kind: StepKind
    key: str
    request: WalletRequest
    player_id: str | None = None
    client_key: str | None = None


async def record_all(session: AsyncSession, steps: Sequence[NewStep], now: datetime) -> list[MoneyStep]:
    """New pending steps (one statement for all), as recorded, in the order given."""
    new = [
        NewCall(
            key=f"td:{step.key}",
            target=WALLET,
            operation=step.kind.value,
            request=step.request,
            group=step.tournament_id,
            own={"player_id": step.player_id, "client_key": step.client_key},
        )
        for step in steps
    ]
    return [step_of(call) for call in await CALLS.record_all(session, new, now)]


async def find(
    session: AsyncSession, tournament_id: str, kind: StepKind, player_id: str, client_key: str
) -> MoneyStep | None:
    """The step a caller's Idempotency-Key already asked for."""
    call = await CALLS.first(
        session,
        _c.group_key == tournament_id,
        _c.operation == kind.value,
        _c.player_id == player_id,
        _c.client_key == client_key,
    )
    return None if call is None else step_of(call)


async def of_tournament(
    session: AsyncSession, tournament_id: str, kinds: Sequence[StepKind] | None = None
) -> list[MoneyStep]:
    where: list[Any] = [_c.group_key == tournament_id]
    if kinds is not None:
        where.append(_c.operation.in_([kind.value for kind in kinds]))
    return [step_of(call) for call in await CALLS.where(session, *where)]


async def pending_for_player(session: AsyncSession, tournament_id: str, player_id: str) -> list[MoneyStep]:
    calls = await CALLS.pending(session, _c.group_key == tournament_id, _c.player_id == player_id)
    return [step_of(call) for call in calls]


async def by_key(session: AsyncSession, key: str) -> MoneyStep | None:
    """The step recorded with `key` (as given to `record`)."""
    call = await CALLS.by_key(session, f"td:{key}")
    return None if call is None else step_of(call)


def step_of(call: OutgoingCall) -> MoneyStep:
    """The wallet call as the director's step."""
    return MoneyStep(
        step_id=call.call_id,
        tournament_id=call.group or "",
        player_id=call.own["player_id"],
        kind=StepKind(call.operation),
        idempotency_key=call.key,
        client_key=call.own["client_key"],
        request=call.request,
        status=call.status,
        attempts=call.attempts,
        answer=call.answer,
        refusal_code=call.refusal_code,
        created_at=call.created_at,
        updated_at=call.updated_at,
        call=call,
    )
