"""Settling a draw — paying its prizes — and cancelling one — refunding its stakes (T-3 to T-6, T-5.5), crash-safe.

Settling is planned in one transaction: the domain settles the draw from the stored coupons (the same code
the verifier runs on the published files, T-8.4), and the plan is written in full: the verifier's report,
the next jackpot (carried into the pot), and every wallet transfer to make — each coupon's payout in its
own currency (T-6.1), in batches of one wallet call each, and each currency's organizer transfers
(domain/transfers.py). The transfers are then made (service/transfers.py); once all are done the draw is
settled, and each coupon's outcome is published with the draw's event (service/outcomes.py). A restart
resumes the pending ones.

Cancelling stops intake at once; the refunds are planned when no stake is left unconfirmed (a coupon
accepted before the cancellation whose stake is still on its way must be refunded too), then made the same
way. The draw's whole jackpot goes back to the pot (T-5.5).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from platform_kit.errors import Conflict
from platform_kit.events.totalizator import DrawCancelled, DrawSettled
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters import coupons, draws, jackpot, transfers
from totalizator.adapters.draws import Decision, DrawRecord, Lock, usd_text
from totalizator.adapters.transfers import PlannedTransfer, TransferStatus
from totalizator.domain import CannotSettle, Coupon, DrawStatus, Settlement, pool_transfers, refund_all, settle
from totalizator.files import settlement_to_json
from totalizator.service.context import Context
from totalizator.service.outcomes import publish_outcomes
from totalizator.service.problems import cannot_settle, wrong_status
from totalizator.service.staff import Staff
from totalizator.service.transfers import TransferRunner, in_batches, payment, settlement_transfers
from totalizator.service.wallet import PaymentKind

log = logging.getLogger(__name__)


def plan(
    draw_id: str, result: Settlement, players: dict[str, str], *, batch_size: int, first_batch_no: int
) -> list[PlannedTransfer]:
    """Every wallet transfer a settlement (or refund) makes: payments per coupon in numbered batches, then
    the organizer's."""
    kind = PaymentKind.REFUND if result.refunded else PaymentKind.PAYOUT
    payments = [
        payment(
            draw_id,
            kind,
            coupon_id=paid.coupon_id,
            player_id=players[paid.coupon_id],
            currency=paid.currency,
            amount=paid.amount,
        )
        for paid in result.payouts
    ]
    batched = in_batches(payments, batch_size, first_batch_no=first_batch_no)
    return batched + settlement_transfers(draw_id, pool_transfers(result))


async def settle_stored(session: AsyncSession, record: DrawRecord) -> tuple[Settlement, list[tuple[Coupon, str]]]:
    """The domain's settlement of a draw's stored coupons (each with its player): what settling pays, and what
    its preview shows, from one computation."""
    draw = await draws.load(session, record)
    accepted = await coupons.accepted_with_players(session, record.draw_id)
    try:
        return settle(draw, [coupon for coupon, _ in accepted]), accepted
    except CannotSettle as error:
        raise cannot_settle(error) from None


class Settlements:
    def __init__(self, context: Context, runner: TransferRunner) -> None:
        self.context = context
        self.runner = runner

    async def preview(self, draw_id: str) -> dict[str, Any]:
        """What settling now would give, as the verifier's report (T-8.4): categories, coefficients, jackpot
        top-up and the next jackpot, for staff to check before settling. Nothing is written: the same domain
        computation `settle` runs, on the same stored coupons, so the preview is the settlement. A read session,
        not a transaction: nothing is locked (SQLite's write lock would queue the preview behind every writer),
        and a closed draw's coupons no longer change; `settle` reads them again under its lock anyway."""
        async with self.context.units.reading() as session:
            record = await draws.get(session, draw_id)
            if record.status is not DrawStatus.CLOSED:
                raise wrong_status(draw_id, record.status, "be previewed for settlement")
            result, _ = await settle_stored(session, record)
        return {"final_count": record.is_final, **settlement_to_json(result)}

    async def settle(self, draw_id: str, staff: Staff) -> None:
        """Settle a closed draw whose count is final: every valid match needs its result. Idempotent."""
        now = self.context.now()
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status in (DrawStatus.SETTLING, DrawStatus.SETTLED):
                return
            if record.status is not DrawStatus.CLOSED:
                raise wrong_status(draw_id, record.status, "be settled")
            if not record.is_final:
                raise Conflict(
                    "count_not_final",
                    f"Draw {draw_id} still has stakes the wallet has not confirmed; settle once its count is final.",
                )
            result, accepted = await settle_stored(uow.session, record)
            await self._plan_transfers(uow.session, draw_id, result, accepted)
            await jackpot.add(uow.session, result.jackpot.next_usd, at=now)
            await draws.update_draw(
                uow.session,
                draw_id,
                status=str(DrawStatus.SETTLING),
                settlement_report=json.dumps(settlement_to_json(result)),
                next_jackpot_usd=usd_text(result.jackpot.next_usd),
            )
            await draws.record_decision(
                uow.session,
                Decision(
                    draw_id,
                    None,
                    "settle",
                    {
                        "refunded": result.refunded,
                        "void_matches": list(result.void_matches),
                        "next_jackpot_usd": usd_text(result.jackpot.next_usd),
                    },
                    None,
                    str(staff.role),
                    staff.staff_id,
                    now,
                ),
            )
        await self.advance(draw_id)

    async def cancel(self, draw_id: str, reason: str, staff: Staff) -> None:
        """Cancel a draw before settlement; every accepted coupon is refunded (T-5.5). Idempotent."""
        now = self.context.now()
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status in (DrawStatus.CANCELLING, DrawStatus.CANCELLED):
                return
            if not record.status.may_cancel:
                raise wrong_status(draw_id, record.status, "be cancelled")
            await draws.record_decision(
                uow.session, Decision(draw_id, None, "cancel", {}, reason, str(staff.role), staff.staff_id, now)
            )
            if record.status is DrawStatus.DRAFT:  # never announced: no bet, no jackpot taken
                await draws.update_draw(
                    uow.session, draw_id, status=str(DrawStatus.CANCELLED), cancel_reason=reason, finished_at=now
                )
                await self.context.outbox.add(
                    uow.session, DrawCancelled(draw_id=draw_id, reason=reason, refunded_coupons=0)
                )
                return
            await jackpot.add(uow.session, record.jackpot_usd, at=now)
            await draws.update_draw(uow.session, draw_id, status=str(DrawStatus.CANCELLING), cancel_reason=reason)
        await self.advance(draw_id)

    async def advance(self, draw_id: str) -> None:
        """Take a settling or cancelling draw (or a draw with transfers left) as far as it can go now."""
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id)
        if record.status is DrawStatus.CANCELLING and record.settlement_report is None:
            await self._plan_refunds(draw_id)
        if await self.runner.run(draw_id):
            await self._finish(draw_id)

    async def advance_all(self) -> None:
        """The clock's round: every unfinished settlement or cancellation, every draw with transfers left."""
        async with self.context.units.unit() as uow:
            unfinished = await draws.ids(uow.session, [DrawStatus.SETTLING, DrawStatus.CANCELLING])
            unfinished += await transfers.draws_with_pending(uow.session)
        for draw_id in dict.fromkeys(unfinished):
            try:
                await self.advance(draw_id)
            except Exception:
                log.exception("could not advance draw", extra={"draw_id": draw_id})

    async def _plan_refunds(self, draw_id: str) -> None:
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status is not DrawStatus.CANCELLING or record.settlement_report is not None:
                return
            if await coupons.count_pending(uow.session, draw_id):
                return  # a stake still on its way: refund it too, once the wallet has answered
            accepted = await coupons.accepted_with_players(uow.session, draw_id)
            result = refund_all(await draws.load(uow.session, record), [coupon for coupon, _ in accepted])
            await self._plan_transfers(uow.session, draw_id, result, accepted)
            await draws.update_draw(uow.session, draw_id, settlement_report=json.dumps(settlement_to_json(result)))

    async def _plan_transfers(
        self, session: AsyncSession, draw_id: str, result: Settlement, accepted: list[tuple[Coupon, str]]
    ) -> None:
        """Written with the settlement or refund, batches included: every call is fixed before any is made."""
        planned = plan(
            draw_id,
            result,
            _players(accepted),
            batch_size=self.context.settings.payment_batch_size,
            first_batch_no=await transfers.last_batch_no(session, draw_id) + 1,
        )
        await transfers.plan(session, draw_id, planned, at=self.context.now())

    async def _finish(self, draw_id: str) -> None:
        now = self.context.now()
        async with self.context.units.unit() as uow:
            record = await draws.get(uow.session, draw_id, lock=Lock.UPDATE)
            if record.status not in (DrawStatus.SETTLING, DrawStatus.CANCELLING) or record.settlement_report is None:
                return
            progress = await transfers.progress(uow.session, draw_id)
            if progress[TransferStatus.PENDING] or progress[TransferStatus.REFUSED]:
                return
            report = json.loads(record.settlement_report)
            # Each coupon's outcome first, in one statement per batch: the draw's event ends its channel.
            await publish_outcomes(uow.session, self.context.outbox, draw_id, refunded=bool(report["refunded"]))
            if record.status is DrawStatus.SETTLING:
                await draws.update_draw(uow.session, draw_id, status=str(DrawStatus.SETTLED), finished_at=now)
                await uow.publish(settled_event(record, report))
            else:
                await draws.update_draw(uow.session, draw_id, status=str(DrawStatus.CANCELLED), finished_at=now)
                await uow.publish(
                    DrawCancelled(
                        draw_id=draw_id, reason=record.cancel_reason or "", refunded_coupons=len(report["payouts"])
                    ),
                )


def settled_event(record: DrawRecord, report: dict[str, object]) -> DrawSettled:
    payouts = report["payouts"]
    assert isinstance(payouts, list)
    assert record.next_jackpot_usd is not None
    return DrawSettled(
        draw_id=record.draw_id,
        refunded=bool(report["refunded"]),
        winning_coupons=len(payouts),
        paid_usd=str(report["paid_usd"]),
        organizer_topup_usd=str(report["organizer_topup_usd"]),
        rounding_remainder_usd=str(report["rounding_remainder_usd"]),
        next_jackpot_usd=usd_text(record.next_jackpot_usd),
    )


def _players(accepted: list[tuple[Coupon, str]]) -> dict[str, str]:
    return {coupon.coupon_id: player for coupon, player in accepted}
