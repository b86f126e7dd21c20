"""Moving a draw's money through the wallet: planned transfers, made in phases, resumable after a crash.

Every wallet call is first written as a `wallet_transfers` row with its idempotency key (derived from the
draw and the coupon, or the draw, kind and currency), then made, then marked done. After a crash or a
timeout the clock makes the pending ones again with the same key, and the wallet answers a repeated key with
its first answer: nothing is paid twice.

Phases keep a pool from going below zero: money into the pool first (organizer top-up, jackpot release),
then the players' payments, then what is left goes out (organizer share, jackpot carry, rounding remainder).
A phase starts only when the previous one is complete; a refused transfer stops the draw for an operator.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict

from totalizator.adapters import transfers
from totalizator.adapters.transfers import PlannedTransfer, TransferRecord, TransferStatus
from totalizator.domain import PoolTransfers
from totalizator.service.context import Context
from totalizator.service.wallet import PaymentKind, TransferKind, WalletRefused, WalletUnavailable

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


class TransferRunner:
    def __init__(self, context: Context) -> None:
        self.context = context
        # One run per draw at a time in this process; across processes the idempotency keys keep it safe.
        self._running: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def run(self, draw_id: str) -> bool:
        """Make the draw's pending transfers, phase by phase; True when none is left pending or refused."""
        async with self._running[draw_id]:
            async with self.context.db.transaction() as session:
                todo = await transfers.unfinished(session, draw_id)
            for phase in sorted({t.phase for t in todo}):
                batch = [t for t in todo if t.phase == phase]
                if any(t.status is TransferStatus.REFUSED for t in batch):
                    return False
                if not await self._make_all(batch):
                    return False
            return True

    async def _make_all(self, batch: list[TransferRecord]) -> bool:
        """Make a phase's transfers, a few at a time; once the wallet fails to answer, try no more of them."""
        limit = asyncio.Semaphore(self.context.settings.transfer_concurrency)
        unanswered = asyncio.Event()

        async def make(transfer: TransferRecord) -> bool:
            async with limit:
                if unanswered.is_set():
                    return False
                return await self._make(transfer, unanswered)

        return all(await asyncio.gather(*(make(t) for t in batch)))

    async def _make(self, transfer: TransferRecord, unanswered: asyncio.Event) -> bool:
        wallet = self.context.wallet
        try:
            if transfer.kind in _PAYMENT_KINDS:
                assert transfer.player_id is not None
                operation_id = await wallet.pay(
                    transfer.draw_id,
                    PaymentKind(transfer.kind),
                    player_id=transfer.player_id,
                    currency=transfer.currency,
                    amount=transfer.amount,
                    key=transfer.key,
                )
            else:
                operation_id = await wallet.transfer(
                    transfer.draw_id,
                    TransferKind(transfer.kind),
                    currency=transfer.currency,
                    amount=transfer.amount,
                    key=transfer.key,
                )
        except WalletRefused as refusal:
            log.error(
                "wallet refused a draw transfer",
                extra={"draw_id": transfer.draw_id, "key": transfer.key, "code": refusal.code},
            )
            await self._mark(transfer, TransferStatus.REFUSED, error=json.dumps(refusal.body or {"code": refusal.code}))
            return False
        except WalletUnavailable as exc:
            log.warning("draw transfer not confirmed", extra={"key": transfer.key, "error": str(exc)})
            unanswered.set()
            return False
        await self._mark(transfer, TransferStatus.DONE, operation_id=operation_id)
        return True

    async def _mark(
        self,
        transfer: TransferRecord,
        status: TransferStatus,
        *,
        operation_id: int | None = None,
        error: str | None = None,
    ) -> None:
        async with self.context.db.transaction() as session:
            await transfers.mark(
                session, transfer.id, status, at=self.context.now(), operation_id=operation_id, error=error
            )
