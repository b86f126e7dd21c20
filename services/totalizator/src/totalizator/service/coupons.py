"""Bet intake (T-1.4, T-2.4, T-2.5, T-5.5): accept a coupon, then take its stake through the wallet.

1. Under a share lock on the draw row, the coupon is checked against the open draw at the clock's time and
   inserted `pending`. Closing takes the same row FOR UPDATE, so no coupon is accepted after the draw
   closed: the check and the insert are atomic with respect to closing.
2. The wallet moves the stake from the player's account to the draw's pool, under an idempotency key
   derived from the player and the client's own Idempotency-Key.
3. The coupon is resolved: `accepted` (it counts) or `refused` with the wallet's problem (it never counts).

A retry with the same Idempotency-Key returns the first answer; if the wallet did not answer (the coupon is
still pending) it asks again with the same key, so the stake is never taken twice. The draw clock retries
pending coupons too, and a draw's count becomes final only once none is left pending.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import date, timedelta

from platform_kit.errors import Conflict, ProblemError, Unavailable
from sqlalchemy.exc import IntegrityError

from totalizator.adapters import coupons, draws
from totalizator.adapters.coupons import CouponRecord, CouponStatus
from totalizator.adapters.draws import Lock
from totalizator.domain import CouponRejected, Draw, DrawStatus, validate_coupon
from totalizator.service.context import Context
from totalizator.service.problems import betting_not_open, coupon_refused
from totalizator.service.wallet import WalletRefused, WalletUnavailable

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CouponRequest:
    draw_id: str
    player_id: str
    birth_date: date  # the gateway knows it (T-1.4); it is checked, never stored
    currency: str
    amount: int  # minor units
    picks: tuple[tuple[str, ...], ...]  # option labels per match

    def fingerprint(self) -> str:
        """Identifies the request behind an Idempotency-Key: the same key with another request is refused."""
        canonical = json.dumps(
            [self.draw_id, self.birth_date.isoformat(), self.currency, self.amount, self.picks],
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Placed:
    coupon: CouponRecord
    draw: Draw
    replayed: bool


def stake_key(player_id: str, idempotency_key: str) -> str:
    """The wallet's Idempotency-Key for a coupon's stake: the client's key, scoped to this service and player."""
    return f"totalizator:stake:{player_id}:{idempotency_key}"


class CouponIntake:
    def __init__(self, context: Context) -> None:
        self.context = context

    async def place(self, request: CouponRequest, idempotency_key: str) -> Placed:
        fingerprint = request.fingerprint()
        try:
            record, draw, earlier = await self._accept(request, idempotency_key, fingerprint)
        except IntegrityError:  # the same key, concurrently: its first request won
            async with self.context.db.transaction() as session:
                first = await coupons.by_key(session, request.player_id, idempotency_key)
            if first is None:
                raise
            return await self._replay(first, fingerprint)
        if earlier:
            return await self._replay(record, fingerprint, draw)
        return Placed(await self._charge(record), draw, replayed=False)

    async def retry_pending(self) -> int:
        """Ask the wallet again about stakes it has not confirmed for a while (the clock calls it)."""
        by = self.context.now() - timedelta(seconds=self.context.settings.stake_retry_seconds)
        async with self.context.db.transaction() as session:
            stuck = await coupons.pending(session, accepted_by=by)
        for record in stuck:
            try:
                await self._charge(record)
            except ProblemError as problem:
                log.info("stake retry answered", extra={"coupon_id": record.coupon_id, "code": problem.code})
        return len(stuck)

    async def _accept(
        self, request: CouponRequest, idempotency_key: str, fingerprint: str
    ) -> tuple[CouponRecord, Draw, bool]:
        """The pending coupon of this request, and whether it came from an earlier request with the key."""
        coupon_id = self.context.new_coupon_id()
        async with self.context.db.transaction() as session:
            record = await draws.get(session, request.draw_id, lock=Lock.SHARE)
            draw = await self.context.draws.draw(session, record)
            earlier = await coupons.by_key(session, request.player_id, idempotency_key)
            if earlier is not None:  # a retry: its first answer stands, whatever the draw's state now
                return earlier, draw, True
            if record.status is not DrawStatus.OPEN:
                raise betting_not_open(request.draw_id, record.status)
            now = self.context.now()  # read under the lock: closing cannot slip in between
            try:
                coupon = validate_coupon(
                    draw,
                    coupon_id=coupon_id,
                    currency=request.currency,
                    amount=request.amount,
                    picks=request.picks,
                    birth_date=request.birth_date,
                    now=now,
                )
            except CouponRejected as rejection:
                raise coupon_refused(rejection) from None
            pending = await coupons.insert_pending(
                session,
                coupon,
                draw_id=request.draw_id,
                player_id=request.player_id,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
                accepted_at=now,
            )
            return pending, draw, False

    async def _charge(self, record: CouponRecord) -> CouponRecord:
        """Take the stake of a pending coupon through the wallet and record the answer."""
        try:
            operation_id = await self.context.wallet.stake(
                record.draw_id,
                player_id=record.player_id,
                currency=record.currency,
                amount=record.amount,
                coupon_id=record.coupon_id,
                key=stake_key(record.player_id, record.idempotency_key),
            )
        except WalletRefused as refusal:
            body = refusal.body or {"code": refusal.code, "title": refusal.message, "status": refusal.status}
            async with self.context.db.transaction() as session:
                await coupons.resolve(
                    session, record.coupon_id, CouponStatus.REFUSED, at=self.context.now(), refusal=body
                )
            raise _stake_refused(record.coupon_id, body) from None
        except WalletUnavailable as exc:
            log.warning("stake not confirmed", extra={"coupon_id": record.coupon_id, "error": str(exc)})
            raise Unavailable(
                "payment_pending",
                "The wallet did not confirm the stake; retry with the same Idempotency-Key.",
                coupon_id=record.coupon_id,
            ) from None
        now = self.context.now()
        async with self.context.db.transaction() as session:
            await coupons.resolve(session, record.coupon_id, CouponStatus.ACCEPTED, at=now, operation_id=operation_id)
        # A concurrent retry may have resolved it first: with the same key the wallet gave it the same answer.
        return dataclasses.replace(
            record, status=CouponStatus.ACCEPTED, resolved_at=now, wallet_operation_id=operation_id
        )

    async def _replay(self, earlier: CouponRecord, fingerprint: str, draw: Draw | None = None) -> Placed:
        if earlier.fingerprint != fingerprint:
            raise Conflict(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different coupon.",
                coupon_id=earlier.coupon_id,
            )
        if earlier.status is CouponStatus.REFUSED:
            raise _stake_refused(earlier.coupon_id, earlier.refusal or {})
        if draw is None:
            async with self.context.db.transaction() as session:
                draw = await self.context.draws.draw(session, await draws.get(session, earlier.draw_id))
        if earlier.status is CouponStatus.PENDING:
            return Placed(await self._charge(earlier), draw, replayed=True)
        return Placed(earlier, draw, replayed=True)


def _stake_refused(coupon_id: str, body: dict[str, object]) -> ProblemError:
    """The wallet's refusal (insufficient funds, no account in the currency …) relayed with its own code."""
    status = body.get("status")
    return ProblemError(
        str(body.get("code") or "stake_refused"),
        str(body.get("title") or "The wallet refused the stake."),
        status=status if isinstance(status, int) and 400 <= status < 500 else 409,
        coupon_id=coupon_id,
    )
