"""Bet intake (T-1.4, T-2.4, T-2.5, T-5.5): accept a coupon, then take its stake through the wallet.

1. Under a share lock on the draw row, the coupon is checked against the open draw at the clock's time and
   inserted `pending`. Closing takes the same row FOR UPDATE, so no coupon is accepted after the draw
   closed: the check and the insert are atomic with respect to closing.
2. The wallet moves the stake from the player's account to the draw's pool, under an idempotency key
   derived from the player and the client's own Idempotency-Key.
3. The coupon is resolved: `accepted` (it counts) or `refused` with the wallet's problem (it never counts).

All three steps are group commits (platform_kit.keyed_batches, a queue each): coupons arriving together are
checked and inserted in one transaction (one lock of the draw row, one SELECT of their keys, one INSERT), their
stakes sent to the wallet in one call per draw (the wallet's stake batch: one wallet transaction, each stake
under its own key), and their answers recorded in another transaction, so a closing rush costs a fraction of a
transaction and of a wallet call per coupon. A refusal of one coupon is its own answer; the others of its group
are accepted all the same. A request that goes away (cancelled) before its group began is left out of it, which
each step allows: a coupon not inserted was never placed, and one left pending (its stake not sent, or the
wallet's answer not recorded) is taken up by a retry with the same key or by the clock, as after a crash.

A retry with the same Idempotency-Key returns the first answer; if the wallet did not answer (the coupon is
still pending) it asks again with the same key, so the stake is never taken twice. The draw clock retries
pending coupons too, and a draw's count becomes final only once none is left pending.

Overload: at most `intake_in_flight` coupons are being placed at once in a process; one more is refused at once
with 503 `intake_busy` and Retry-After, before anything is written (a retry with the same key places it). At
most `stake_concurrency` stake calls are at the wallet at once: the stakes arriving meanwhile wait their turn
(and go together in the next call) rather than flood it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from platform_kit.admission import Admission
from platform_kit.errors import Conflict, NotFound, ProblemError, Unavailable
from platform_kit.keyed_batches import KeyedBatches
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import coupons, draws
from totalizator.adapters.coupons import CouponRecord, CouponStatus, Resolution
from totalizator.adapters.draws import DrawRecord, Lock
from totalizator.domain import CouponRejected, Draw, DrawStatus, validate_coupon
from totalizator.service.context import Context
from totalizator.service.problems import betting_not_open, coupon_refused
from totalizator.service.wallet import Stake, WalletRefused, WalletUnavailable

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


#: Coupons in one group commit at most (a statement's parameters stay well under the databases' limits).
MAX_GROUP = 500
_GROUPS = "coupons"  # each step's one queue: its groups mix draws (a group locks each of its draws' rows)


@dataclass(frozen=True, slots=True)
class _Arrival:
    request: CouponRequest
    idempotency_key: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class _Taken:
    """A coupon of the group: the one just inserted pending, or the one an earlier request placed with the key."""

    record: CouponRecord
    draw: Draw
    earlier: bool


class _SameKeyInGroup(Exception):
    """Another request with the same player and key was inserted in this group: this one is its retry."""


class CouponIntake:
    def __init__(self, context: Context) -> None:
        self.context = context
        self._placing = Admission(
            context.settings.intake_in_flight,
            "intake_busy",
            "Too many coupons are being placed; retry shortly with the same key.",
        )
        # Stakes go to the wallet in batches as coupons go to the database in groups, `stake_concurrency` calls at once.
        self._staking = KeyedBatches[CouponRecord, int](
            self._stake_group, max_size=MAX_GROUP, runners=context.settings.stake_concurrency
        )
        writers = context.settings.intake_writers
        self._accepting = KeyedBatches[_Arrival, _Taken](self._accept_group, max_size=MAX_GROUP, runners=writers)
        self._resolving = KeyedBatches[Resolution, None](self._resolve_group, max_size=MAX_GROUP, runners=writers)

    async def place(self, request: CouponRequest, idempotency_key: str) -> Placed:
        async with self._placing.admit():
            return await self._place(request, idempotency_key)

    async def _place(self, request: CouponRequest, idempotency_key: str) -> Placed:
        fingerprint = request.fingerprint()
        try:
            taken = await self._accepting.submit(_GROUPS, _Arrival(request, idempotency_key, fingerprint))
        except (IntegrityError, _SameKeyInGroup):  # the same key, concurrently: its first request won
            async with self.context.units.reading() as session:
                first = await coupons.by_key(session, request.player_id, idempotency_key)
            if first is None:
                raise
            return await self._replay(first, fingerprint)
        if taken.earlier:
            return await self._replay(taken.record, fingerprint, taken.draw)
        return Placed(await self._charge(taken.record), taken.draw, replayed=False)

    async def retry_pending(self) -> int:
        """Ask the wallet again about stakes it has not confirmed for a while (the clock calls it), as many at once
        as intake may (after a wallet outage in a closing rush, hundreds wait, and the count is final only once
        none does); their answers are recorded in groups."""
        by = self.context.now() - timedelta(seconds=self.context.settings.stake_retry_seconds)
        async with self.context.units.reading() as session:
            stuck = await coupons.pending(session, accepted_by=by)
        answers = await asyncio.gather(*(self._charge(record) for record in stuck), return_exceptions=True)
        for record, answer in zip(stuck, answers, strict=True):
            if isinstance(answer, ProblemError):
                log.info("stake retry answered", extra={"coupon_id": record.coupon_id, "code": answer.code})
            elif isinstance(answer, BaseException):
                raise answer
        return len(stuck)

    async def _accept_group(self, queue: str, arrivals: Sequence[_Arrival]) -> list[_Taken | Exception]:
        """The group commit's write: each arrival's answer."""
        try:
            return await self._accept_together(arrivals)
        except IntegrityError as clash:
            # A key of the group was inserted meanwhile by a request outside it (another replica): each alone,
            # so that only the request whose key clashed learns it (and replays the first answer).
            if len(arrivals) == 1:
                return [clash]
            return [answer for arrival in arrivals for answer in await self._accept_group(queue, [arrival])]

    async def _accept_together(self, arrivals: Sequence[_Arrival]) -> list[_Taken | Exception]:
        """The group's pending coupons, in one transaction: each coupon's answer, or the problem refusing it."""
        async with self.context.units.unit() as uow:
            session = uow.session
            drawn = {
                draw_id: await self._lock(session, draw_id) for draw_id in sorted({a.request.draw_id for a in arrivals})
            }
            earlier = await coupons.by_keys(session, [(a.request.player_id, a.idempotency_key) for a in arrivals])
            now = self.context.now()  # read under the lock: closing cannot slip in between
            answers: list[_Taken | Exception] = []
            inserted: set[tuple[str, str]] = set()
            for arrival in arrivals:
                key = (arrival.request.player_id, arrival.idempotency_key)
                answer = self._take(arrival, drawn[arrival.request.draw_id], earlier.get(key), now)
                if key in inserted:
                    answer = _SameKeyInGroup()
                elif isinstance(answer, _Taken) and not answer.earlier:
                    inserted.add(key)
                answers.append(answer)
            await coupons.insert_pending(
                session, [a.record for a in answers if isinstance(a, _Taken) and not a.earlier]
            )
            return answers

    async def _lock(self, session: AsyncSession, draw_id: str) -> tuple[DrawRecord, Draw] | ProblemError:
        try:
            record = await draws.get(session, draw_id, lock=Lock.SHARE)
        except NotFound as missing:
            return missing
        return record, await self.context.draws.draw(session, record)

    def _take(
        self,
        arrival: _Arrival,
        drawn: tuple[DrawRecord, Draw] | ProblemError,
        earlier: CouponRecord | None,
        now: datetime,
    ) -> _Taken | Exception:
        """One coupon of the group checked against its draw: a new pending coupon, an earlier one, or a refusal."""
        request = arrival.request
        coupon_id = self.context.new_coupon_id()  # one per request, refused or not: seeded runs keep their ids
        if isinstance(drawn, ProblemError):
            return drawn
        record, draw = drawn
        if earlier is not None:  # a retry: its first answer stands, whatever the draw's state now
            return _Taken(earlier, draw, earlier=True)
        if record.status is not DrawStatus.OPEN:
            return betting_not_open(request.draw_id, record.status)
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
            return coupon_refused(rejection)
        pending = coupons.pending_record(
            coupon,
            draw_id=request.draw_id,
            player_id=request.player_id,
            idempotency_key=arrival.idempotency_key,
            fingerprint=arrival.fingerprint,
            accepted_at=now,
        )
        return _Taken(pending, draw, earlier=False)

    async def _resolve_group(self, _: str, answers: Sequence[Resolution]) -> list[None]:
        async with self.context.units.unit() as uow:
            session = uow.session
            await coupons.resolve(session, answers)
        return [None] * len(answers)

    async def _charge(self, record: CouponRecord) -> CouponRecord:
        """Take the stake of a pending coupon through the wallet and record the answer."""
        try:
            operation_id = await self._stake(record)
        except WalletRefused as refusal:
            body = refusal.body or {"code": refusal.code, "title": refusal.message, "status": refusal.status}
            await self._record(Resolution(record.coupon_id, CouponStatus.REFUSED, self.context.now(), refusal=body))
            raise _stake_refused(record.coupon_id, body) from None
        except WalletUnavailable as exc:
            log.warning("stake not confirmed", extra={"coupon_id": record.coupon_id, "error": str(exc)})
            raise _payment_pending(record.coupon_id, "The wallet did not confirm the stake") from None
        now = self.context.now()
        await self._record(Resolution(record.coupon_id, CouponStatus.ACCEPTED, now, operation_id))
        # A concurrent retry may have resolved it first: with the same key the wallet gave it the same answer.
        return dataclasses.replace(
            record, status=CouponStatus.ACCEPTED, resolved_at=now, wallet_operation_id=operation_id
        )

    async def _stake(self, record: CouponRecord) -> int:
        """The wallet's operation for the stake, sent with the stakes of the coupons arriving with it in one call; a
        stake that waited its turn for as long as a call may take leaves the coupon pending, never sent (the
        caller's retry, or the clock, takes the stake)."""
        try:
            return await self._staking.submit(_GROUPS, record, turn_within=self.context.settings.wallet_timeout_seconds)
        except TimeoutError:
            raise WalletUnavailable("no turn to call the wallet: too many stakes in flight") from None

    async def _stake_group(self, _: str, records: Sequence[CouponRecord]) -> list[int | Exception]:
        """A group's stakes, one wallet call per draw (the calls at once): each its operation id or refusal, or,
        when the call went unanswered, WalletUnavailable."""
        by_draw: dict[str, list[int]] = defaultdict(list)
        for index, record in enumerate(records):
            by_draw[record.draw_id].append(index)
        answers: list[int | Exception] = [WalletUnavailable("not sent")] * len(records)

        async def call(draw_id: str, indexes: list[int]) -> None:
            stakes = [_stake_of(records[index]) for index in indexes]
            try:
                got: Sequence[int | Exception] = await self.context.wallet.stakes(draw_id, stakes)
            except WalletUnavailable as exc:
                got = [exc] * len(indexes)
            for index, answer in zip(indexes, got, strict=True):
                answers[index] = answer

        await asyncio.gather(*(call(draw_id, indexes) for draw_id, indexes in by_draw.items()))
        return answers

    async def _record(self, answer: Resolution) -> None:
        """The wallet's answer, written with the others of its group. If the database fails now, the money has
        moved (or been refused) but the coupon is still pending: the caller is told to retry with the same key,
        which asks the wallet again (it answers as before) and records its answer."""
        try:
            await self._resolving.submit(_GROUPS, answer)
        except SQLAlchemyError as exc:
            log.warning("stake answer not recorded", extra={"coupon_id": answer.coupon_id, "error": str(exc)})
            raise _payment_pending(answer.coupon_id, "The stake's answer is not recorded yet") from None

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
            async with self.context.units.reading() as session:
                draw = await self.context.draws.draw(session, await draws.get(session, earlier.draw_id))
        if earlier.status is CouponStatus.PENDING:
            return Placed(await self._charge(earlier), draw, replayed=True)
        return Placed(earlier, draw, replayed=True)


def _stake_of(record: CouponRecord) -> Stake:
    key = stake_key(record.player_id, record.idempotency_key)
    return Stake(record.player_id, record.currency, record.amount, record.coupon_id, key)


def _payment_pending(coupon_id: str, what: str) -> Unavailable:
    """The stake's outcome is not known here yet; the coupon stays pending and a retry with the same key learns it
    (503 with Retry-After)."""
    return Unavailable("payment_pending", f"{what}; retry with the same Idempotency-Key.", coupon_id=coupon_id)


def _stake_refused(coupon_id: str, body: dict[str, object]) -> ProblemError:
    """The wallet's refusal (insufficient funds, no account in the currency …) relayed with its own code."""
    status = body.get("status")
    return ProblemError(
        str(body.get("code") or "stake_refused"),
        str(body.get("title") or "The wallet refused the stake."),
        status=status if isinstance(status, int) and 400 <= status < 500 else 409,
        coupon_id=coupon_id,
    )
