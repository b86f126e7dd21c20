"""Moving a draw's money through the wallet: planned transfers, made in phases, resumable after a crash.

Every transfer is first written as a `wallet_transfers` row, then made, then marked done. The coupons'
payments are planned in batches of up to `payment_batch_size`, one wallet call each (same kind and currency;
a player may appear in a batch more than once); the organizer's transfers are a call each. Each call is
recorded with the plan as one of the kit's outgoing calls (platform_kit.outgoing_calls; adapters/transfers.py),
so after a crash or a timeout the clock makes the pending calls again with the same key and the same request,
and the wallet answers a repeated key with its first answer: nothing is paid twice. The answer is recorded
on the call and on every row of the call in one transaction.

Phases keep a pool from going below zero: money into the pool first (organizer top-up, jackpot release),
then the players' payments, then what is left goes out (organizer share, jackpot carry, rounding remainder).
A phase starts only when the previous one is complete; a refused transfer stops the draw for an operator.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from platform_kit.keyed_locks import KeyedLocks
from platform_kit.outgoing_calls import Answer, CallStatus, OutgoingCall
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import transfers
from totalizator.adapters.transfers import CALLS, PlannedTransfer, TransferRecord, TransferStatus
from totalizator.domain import PoolTransfers
from totalizator.service.context import Context
from totalizator.service.wallet import PaymentKind, TransferKind

log = logging.getLogger(__name__)

PHASES: dict[str, int] = {
    TransferKind.ORGANIZER_TOP_UP: 0,
    TransferKind.JACKPOT_RELEASE: 0,
    PaymentKind.PAYOUT: 1,
    PaymentKind.REFUND: 1,
    TransferKind.ORGANIZER_SHARE: 2,
    TransferKind.JACKPOT_CARRY: 2,
    TransferKind.ROUNDING_REMAINDER: 2,
}


def payment(
    draw_id: str, kind: PaymentKind, *, coupon_id: str, player_id: str, currency: str, amount: int
) -> PlannedTransfer:
    return PlannedTransfer(
        phase=PHASES[kind],
        kind=str(kind),
        currency=currency,
        amount=amount,
        key=f"totalizator:{draw_id}:{kind}:{coupon_id}",
        player_id=player_id,
        coupon_id=coupon_id,
    )


def in_batches(payments: Sequence[PlannedTransfer], size: int, *, first_batch_no: int) -> list[PlannedTransfer]:
    """The payments in batches of at most `size` (one wallet call each) numbered from `first_batch_no`, never
    mixing phases, kinds or currencies; in plan order within a batch."""
    groups: dict[tuple[int, str, str], list[PlannedTransfer]] = defaultdict(list)
    for planned in payments:
        groups[planned.phase, planned.kind, planned.currency].append(planned)
    chunks = [group[start : start + size] for group in groups.values() for start in range(0, len(group), size)]
    return [
        replace(planned, batch_no=number) for number, chunk in enumerate(chunks, first_batch_no) for planned in chunk
    ]


def organizer_transfer(
    draw_id: str, kind: TransferKind, *, currency: str, amount: int, purpose: str
) -> PlannedTransfer:
    """`purpose` tells a settlement's transfer from the same kind made for another reason (a T-4.4 top-up)."""
    return PlannedTransfer(
        phase=PHASES[kind],
        kind=str(kind),
        currency=currency,
        amount=amount,
        key=f"totalizator:{draw_id}:{purpose}:{kind}:{currency}",
    )


def settlement_transfers(draw_id: str, pools: tuple[PoolTransfers, ...]) -> list[PlannedTransfer]:
    """The organizer's transfers that empty every currency's pool of a settled draw (domain/transfers.py)."""
    planned = []
    for pool in pools:
        amounts = {
            TransferKind.ORGANIZER_TOP_UP: pool.organizer_top_up,
            TransferKind.JACKPOT_RELEASE: pool.jackpot_release,
            TransferKind.ORGANIZER_SHARE: pool.organizer_share,
            TransferKind.JACKPOT_CARRY: pool.jackpot_carry,
            TransferKind.ROUNDING_REMAINDER: pool.rounding_remainder,
        }
        planned += [
            organizer_transfer(draw_id, kind, currency=pool.currency, amount=amount, purpose="settlement")
            for kind, amount in amounts.items()
            if amount
        ]
    return planned


#: Wallet calls loaded and made per round: with batches of 500, at most 50,000 payments in memory.
CALLS_PER_WINDOW = 100


class TransferRunner:
    def __init__(self, context: Context) -> None:
        self.context = context
        # One run per draw at a time in this process; across processes the idempotency keys keep it safe.
        self._running = KeyedLocks()

    async def run(self, draw_id: str) -> bool:
        """Make the draw's pending transfers, phase by phase, a window of calls at a time (a million coupons'
        refunds are never all in memory); True when none is left pending or refused."""
        async with self._running.holding(draw_id):
            while True:
                async with self.context.units.unit() as uow:
                    window = await transfers.next_window(uow.session, draw_id, CALLS_PER_WINDOW)
                    if window is None:
                        return True
                    calls = wallet_calls(window.transfers)
                    keys = [call[0].wallet_key for call in calls]
                    where = CALLS.table.c.idempotency_key.in_(keys)
                    recorded = {c.key: c for c in await CALLS.where(uow.session, where)}
                if window.refused or not await self._make_all([(recorded[c[0].wallet_key], c) for c in calls]):
                    return False

    async def _make_all(self, calls: list[tuple[OutgoingCall, list[TransferRecord]]]) -> bool:
        """Make a phase's wallet calls, a few at a time; once the wallet fails to answer, try no more of them."""
        limit = asyncio.Semaphore(self.context.settings.transfer_concurrency)
        unanswered = asyncio.Event()

        async def make(call: OutgoingCall, made: list[TransferRecord]) -> bool:
            async with limit:
                if unanswered.is_set():
                    return False
                answered = await self.context.calls.make(
                    call, lambda uow, _, answer: self._answered(uow.session, made[0], answer)
                )
                if answered.status is CallStatus.PENDING:
                    unanswered.set()
                return answered.status is CallStatus.DONE

        return all(await asyncio.gather(*(make(call, made) for call, made in calls)))

    async def _answered(self, session: AsyncSession, made_with: TransferRecord, answer: Answer) -> None:
        """The wallet's answer, for every transfer of the call at once (in the unit that marks the call)."""
        at = self.context.now()
        if answer.ok:
            operation_id = int(answer.body["operation_id"])
            await transfers.mark_call(session, made_with, TransferStatus.DONE, at=at, operation_id=operation_id)
            return
        log.error(
            "wallet refused a draw transfer",
            extra={"draw_id": made_with.draw_id, "key": made_with.wallet_key, "code": answer.code},
        )
        body = (
            answer.body if isinstance(answer.body, dict) and answer.body else {"code": f"wallet_http_{answer.status}"}
        )
        await transfers.mark_call(session, made_with, TransferStatus.REFUSED, at=at, error=json.dumps(body))


def wallet_calls(pending: list[TransferRecord]) -> list[list[TransferRecord]]:
    """Pending transfers grouped by the wallet call that makes them (its key), each in plan order: the
    rows of a batch give the same request whenever it is sent."""
    calls: dict[str, list[TransferRecord]] = defaultdict(list)
    for transfer in pending:
        calls[transfer.wallet_key].append(transfer)
    return list(calls.values())
