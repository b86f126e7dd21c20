"""Moving a draw's money through the wallet: planned transfers, made in phases, resumable after a crash.

Every transfer is first written as a `wallet_transfers` row, then made, then marked done. The coupons'
payments are planned in batches of up to `payment_batch_size`, one wallet call each (same kind and currency;
a player may appear in a batch more than once); the organizer's transfers are a call each. A call's
idempotency key and request are derived from its rows as written in the plan (adapters/transfers.py), so
after a crash or a timeout the clock makes the pending calls again with the same key and the same request,
and the wallet answers a repeated key with its first answer: nothing is paid twice. The answer is recorded
for every row of the call in one transaction.

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

from totalizator.adapters import transfers
from totalizator.adapters.transfers import PlannedTransfer, TransferRecord, TransferStatus
from totalizator.domain import PoolTransfers
from totalizator.service.context import Context
from totalizator.service.wallet import Payment, PaymentKind, TransferKind, WalletRefused, WalletUnavailable

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
_PAYMENT_KINDS = frozenset(PaymentKind)


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
        self._running: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def run(self, draw_id: str) -> bool:
        """Make the draw's pending transfers, phase by phase, a window of calls at a time (a million coupons'
        refunds are never all in memory); True when none is left pending or refused."""
        async with self._running[draw_id]:
            while True:
                async with self.context.db.transaction() as session:
                    window = await transfers.next_window(session, draw_id, CALLS_PER_WINDOW)
                if window is None:
                    return True
                if window.refused or not await self._make_all(wallet_calls(window.transfers)):
                    return False

    async def _make_all(self, calls: list[list[TransferRecord]]) -> bool:
        """Make a phase's wallet calls, a few at a time; once the wallet fails to answer, try no more of them."""
        limit = asyncio.Semaphore(self.context.settings.transfer_concurrency)
        unanswered = asyncio.Event()

        async def make(call: list[TransferRecord]) -> bool:
            async with limit:
                if unanswered.is_set():
                    return False
                return await self._make(call, unanswered)

        return all(await asyncio.gather(*(make(call) for call in calls)))

    async def _make(self, call: list[TransferRecord], unanswered: asyncio.Event) -> bool:
        """One wallet call: a batch of payments, or an organizer's transfer."""
        first = call[0]
        wallet = self.context.wallet
        try:
            if first.kind in _PAYMENT_KINDS:
                operation_id = await wallet.pay(
                    first.draw_id,
                    PaymentKind(first.kind),
                    currency=first.currency,
                    payments=[_payment(transfer) for transfer in call],
                    key=first.wallet_key,
                )
            else:
                (transfer,) = call
                operation_id = await wallet.transfer(
                    transfer.draw_id,
                    TransferKind(transfer.kind),
                    currency=transfer.currency,
                    amount=transfer.amount,
                    key=transfer.wallet_key,
                )
        except WalletRefused as refusal:
            log.error(
                "wallet refused a draw transfer",
                extra={"draw_id": first.draw_id, "key": first.wallet_key, "code": refusal.code},
            )
            await self._mark(first, TransferStatus.REFUSED, error=json.dumps(refusal.body or {"code": refusal.code}))
            return False
        except WalletUnavailable as exc:
            log.warning("draw transfer not confirmed", extra={"key": first.wallet_key, "error": str(exc)})
            unanswered.set()
            return False
        await self._mark(first, TransferStatus.DONE, operation_id=operation_id)
        return True

    async def _mark(
        self,
        made_with: TransferRecord,
        status: TransferStatus,
        *,
        operation_id: int | None = None,
        error: str | None = None,
    ) -> None:
        """The answer, for every transfer of the call at once."""
        async with self.context.db.transaction() as session:
            await transfers.mark_call(
                session, made_with, status, at=self.context.now(), operation_id=operation_id, error=error
            )


def wallet_calls(pending: list[TransferRecord]) -> list[list[TransferRecord]]:
    """Pending transfers grouped by the wallet call that makes them (its key), each in plan order: the
    rows of a batch give the same request whenever it is sent."""
    calls: dict[str, list[TransferRecord]] = defaultdict(list)
    for transfer in pending:
        calls[transfer.wallet_key].append(transfer)
    return list(calls.values())


def _payment(transfer: TransferRecord) -> Payment:
    assert transfer.player_id is not None, "a payment is planned with its player"
    return Payment(transfer.player_id, transfer.amount)
