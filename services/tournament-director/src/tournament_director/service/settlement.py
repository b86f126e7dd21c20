"""The money of a tournament's end, as money steps the worker carries out in order.

Finished (P-8): the guarantee overlay into the escrow (P-8.3), then the prizes in one payouts call (P-8.4,
P-8.5) — a satellite's seats as tickets for its target, whose price stays in its escrow until they are used
(P-3.4), issued once this settlement commits (`SatelliteSettled`) — the tax accrued per concessionaire on its players' entries (P-8.7), and win-streak jackpots (P-8.6).

Cancelled (P-10, and P-3.2 before the start): the overlays first (guarantee, cancellation), then the entries
paid in cash back in one refunds call (prize part from the escrow, fee from the margin, P-10.10), then the
shares of the residual prize pool in one payouts call; ticket entries come back as fresh tickets (P-10.12),
whose prize part stays in this tournament's escrow until they are used. Before anything is recorded, what will
be sent is checked against the settlement: not a cent created or lost (P-10.10).

When every step has been posted, the tournament is settled: `tournament.settlement.completed`.
"""

from __future__ import annotations

from platform_kit.events import tournament as events
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps, offers, runs, tickets, tournaments
from tournament_director.adapters import wallet as wallet_requests
from tournament_director.adapters.http import Answer
from tournament_director.adapters.money_steps import MoneyStep, StepKind, StepStatus
from tournament_director.adapters.tournaments import Standing, Status, TournamentRecord
from tournament_director.domain.cancellation import (
    CancellationSettlement,
    ConservationError,
    RefundReason,
)
from tournament_director.domain.entries import EntryKind, PaymentForm
from tournament_director.domain.kinds import PrizeForm
from tournament_director.domain.run import TournamentRun
from tournament_director.domain.tax import tax_base_cents, tax_on
from tournament_director.service import jackpots
from tournament_director.service import tickets as ticket_service
from tournament_director.service.context import Director
from tournament_director.service.events import RunFinished, SatelliteSettled

#: Steps that must all be posted before a finished or cancelled tournament is settled.
SETTLEMENT_KINDS = (
    StepKind.SPONSORED_ENTRY,
    StepKind.OVERLAY,
    StepKind.PAYOUTS,
    StepKind.BONUS_PRIZES,
    StepKind.REFUNDS,
    StepKind.TAX,
    StepKind.JACKPOT_AWARD,
)
#: Entries given back as they were paid (P-10.10), as opposed to shares of the prize pool.
ENTRY_RETURNS = (RefundReason.ENTRY_PRIZE_PART, RefundReason.ENTRY_FEE)


async def on_run_finished(director: Director, uow: UnitOfWork, event: RunFinished) -> None:
    """The reaction to a run's last hand, once it committed: settle the tournament (once: it is then finished)."""
    tournament = await tournaments.get(uow.session, event.tournament_id, lock=True)
    if tournament is None or tournament.status is not Status.RUNNING:
        return
    run = await runs.load(uow.session, event.tournament_id, director.rng, director.run_cache)
    assert run is not None and run.outcome is not None, f"{event.tournament_id} finished without an outcome"
    await finished(director, uow.session, tournament, run)


async def finished(director: Director, session: AsyncSession, tournament: TournamentRecord, run: TournamentRun) -> None:
    outcome = run.outcome
    assert outcome is not None
    t = tournament.tournament_id
    now = run.now
    await tournaments.set_status(session, t, Status.FINISHED, now, reason="finished")
    await offers.remove_all(session, t)
    for ranked in outcome.event.ranking:
        standing = Standing(ranked.player_id, ranked.position, ranked.prize_cents, ranked.disqualified)
        await tournaments.put_standing(session, t, standing)
    if outcome.funding.overlay_cents:
        await _overlay(director, session, tournament, "guarantee", outcome.funding.overlay_cents)
    prizes = [(ranked.player_id, ranked.prize_cents) for ranked in outcome.event.ranking if ranked.prize_cents]
    await _pay_prizes(director, session, tournament, f"{t}:payouts", prizes)
    if outcome.seat_winners:
        await director.reactions.raise_event(session, SatelliteSettled(t))
    await _accrue_tax(director, session, tournament, run)
    await jackpots.streak_awards(director, session, tournament, outcome)
    await complete_if_settled(director, session, t)


async def cancelled(
    director: Director, session: AsyncSession, tournament: TournamentRecord, settlement: CancellationSettlement
) -> None:
    """Record the money of a cancellation (P-10, or P-3.2 before the start): overlays, refunds, shares, tickets."""
    t = tournament.tournament_id
    await offers.remove_all(session, t)
    cash = [line for line in settlement.lines if line.form is PaymentForm.CASH]
    returned: dict[str, tuple[int, int]] = {}
    shares: dict[str, int] = {}
    for line in cash:
        if line.reason in ENTRY_RETURNS:
            prize_part, fee = returned.get(line.player_id, (0, 0))
            returned[line.player_id] = (prize_part + line.prize_money_cents, fee + line.margin_cents)
        else:
            shares[line.player_id] = shares.get(line.player_id, 0) + line.amount_cents
    ticket_lines = [line for line in settlement.lines if line.form is PaymentForm.TICKET]
    _check_conservation(settlement, returned, shares)
    for overlay in settlement.overlays:
        if overlay.amount_cents:
            await _overlay(director, session, tournament, overlay.kind.value, overlay.amount_cents)
    if returned:
        items = [(player, prize_part, fee) for player, (prize_part, fee) in sorted(returned.items())]
        await _record(
            director,
            session,
            t,
            StepKind.REFUNDS,
            f"{t}:refunds",
            wallet_requests.refunds(t, tournament.currency, items),
        )
    await _pay_prizes(director, session, tournament, f"{t}:cancellation_shares", sorted(shares.items()))
    for line in ticket_lines:
        await ticket_service.issue(
            director,
            session,
            player_id=line.player_id,
            source=tournament,
            prize_part_cents=line.prize_money_cents,
            fee_cents=line.margin_cents,
            reason="cancellation",
        )
    await complete_if_settled(director, session, t)


def _check_conservation(
    settlement: CancellationSettlement, returned: dict[str, tuple[int, int]], shares: dict[str, int]
) -> None:
    """P-10.10 on what is about to be sent: the prize money leaving the escrow (cash refunds, shares, the
    prize parts kept back for fresh tickets) is the settlement's prize money, and the fees are its margin."""
    ticket_prize_money = sum(line.prize_money_cents for line in settlement.lines if line.form is PaymentForm.TICKET)
    ticket_margin = sum(line.margin_cents for line in settlement.lines if line.form is PaymentForm.TICKET)
    prize_money = sum(prize_part for prize_part, _ in returned.values()) + sum(shares.values()) + ticket_prize_money
    fees = sum(fee for _, fee in returned.values()) + ticket_margin
    if prize_money != settlement.prize_money_paid_cents or fees != settlement.margin_returned_cents:
        raise ConservationError(
            f"P-10.10: sending {prize_money} prize money and {fees} fees for a settlement of "
            f"{settlement.prize_money_paid_cents} and {settlement.margin_returned_cents}"
        )


async def on_step_answered(director: Director, session: AsyncSession, step: MoneyStep, answer: Answer) -> None:
    """Completion of every settlement step: the last one settles the tournament."""
    await complete_if_settled(director, session, step.tournament_id)


async def complete_if_settled(director: Director, session: AsyncSession, tournament_id: str) -> None:
    tournament = await tournaments.get(session, tournament_id, lock=True)
    if tournament is None or tournament.settled_at is not None:
        return
    if tournament.status not in (Status.FINISHED, Status.CANCELLED):
        return
    steps = await money_steps.of_tournament(session, tournament_id, SETTLEMENT_KINDS)
    if any(step.status is not StepStatus.DONE for step in steps):
        director.wake_money_worker_after_commit(session)
        return
    await tournaments.mark_settled(session, tournament_id, director.now())
    payments: dict[str, int] = {}
    bonus: dict[str, int] = {}
    for step in steps:
        if step.kind is StepKind.PAYOUTS:
            for item in step.request.body["payouts"]:
                payments[item["player_id"]] = payments.get(item["player_id"], 0) + item["amount"]
        elif step.kind is StepKind.BONUS_PRIZES:
            for item in step.request.body["prizes"]:
                bonus[item["player_id"]] = bonus.get(item["player_id"], 0) + item["amount"]
        elif step.kind is StepKind.REFUNDS:
            for item in step.request.body["refunds"]:
                amount = item["prize_part"] + item["fee"]
                payments[item["player_id"]] = payments.get(item["player_id"], 0) + amount

    def total(kind: StepKind, cause: str | None = None) -> int:
        return sum(
            step.request.body["amount"]
            for step in steps
            if step.kind == kind and (cause is None or step.request.body.get("cause") == cause)
        )

    completed = events.SettlementCompleted(
        tournament_id=tournament_id,
        outcome="finished" if tournament.status is Status.FINISHED else "cancelled",
        currency=tournament.currency,
        payments=[
            events.Payment(player_id=player, cash_cents=payments.get(player, 0), bonus_cents=bonus.get(player, 0))
            for player in sorted(payments.keys() | bonus.keys())
        ],
        guarantee_overlay_cents=total(StepKind.OVERLAY, "guarantee"),
        cancellation_overlay_cents=total(StepKind.OVERLAY, "cancellation"),
        tax_cents=total(StepKind.TAX),
        tickets_issued=await tickets.count_issued(session, tournament_id, "cancellation"),
    )
    await director.runtime.outbox.add(session, completed)


async def _accrue_tax(
    director: Director, session: AsyncSession, tournament: TournamentRecord, run: TournamentRun
) -> None:
    """P-8.7: the tax on each concessionaire's part of the base — its players' entries, and a sponsor's
    sponsored entries — set aside from its margin."""
    rate = director.settings.tax_rate_bps
    if not rate:
        return
    t = tournament.tournament_id
    registrations = {r.player_id: r for r in await tournaments.registrations_of(session, t)}
    bases: dict[str, int] = {}
    for player, entries in run.entries.items():
        for entry in entries:
            sponsored = entry.kind is EntryKind.SPONSORED and tournament.concessionaire_id is not None
            concessionaire = tournament.concessionaire_id if sponsored else registrations[player].concessionaire_id
            assert concessionaire is not None
            bases[concessionaire] = bases.get(concessionaire, 0) + tax_base_cents([entry])
    for concessionaire, base in sorted(bases.items()):
        if tax := tax_on(base, rate):
            request = wallet_requests.tax_accrual(t, concessionaire, tournament.currency, tax)
            await _record(director, session, t, StepKind.TAX, f"{t}:tax:{concessionaire}", request)


def _pays_bonus(tournament: TournamentRecord) -> bool:
    freeroll = tournament.definition.freeroll
    return freeroll is not None and freeroll.prize_form is PrizeForm.BONUS


async def _pay_prizes(
    director: Director, session: AsyncSession, tournament: TournamentRecord, key: str, prizes: list[tuple[str, int]]
) -> None:
    """Prizes (or a cancellation's shares) in one wallet call: cash out of the escrow; a bonus freeroll's as
    bonus money straight from its concessionaire (P-9.3), whose guarantee never passes through the escrow."""
    if not prizes:
        return
    t, currency = tournament.tournament_id, tournament.currency
    if _pays_bonus(tournament):
        assert tournament.concessionaire_id is not None, "a freeroll's guarantee has a concessionaire (creation)"
        request = wallet_requests.bonus_prizes(t, tournament.concessionaire_id, currency, prizes)
        await _record(director, session, t, StepKind.BONUS_PRIZES, key, request)
    else:
        await _record(director, session, t, StepKind.PAYOUTS, key, wallet_requests.payouts(t, currency, prizes))


async def _overlay(
    director: Director, session: AsyncSession, tournament: TournamentRecord, cause: str, amount: int
) -> None:
    """Into the escrow; a bonus freeroll's prizes are paid from the concessionaire directly (`_pay_prizes`)."""
    if _pays_bonus(tournament):
        return
    t = tournament.tournament_id
    if tournament.concessionaire_id is None:
        raise ConservationError(f"{t} owes a {cause} overlay of {amount} and has no concessionaire to pay it")
    request = wallet_requests.overlay(t, cause, tournament.concessionaire_id, tournament.currency, amount)
    await _record(director, session, t, StepKind.OVERLAY, f"{t}:overlay:{cause}", request)


async def _record(
    director: Director,
    session: AsyncSession,
    tournament_id: str,
    kind: StepKind,
    key: str,
    request: wallet_requests.WalletRequest,
    player_id: str | None = None,
) -> None:
    await money_steps.record(
        session,
        tournament_id=tournament_id,
        kind=kind,
        key=key,
        request=request,
        now=director.now(),
        player_id=player_id,
    )
    director.wake_money_worker_after_commit(session)
