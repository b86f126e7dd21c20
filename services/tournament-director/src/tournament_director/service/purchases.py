"""Rebuys and add-ons (P-4), paid through the wallet before the chips are credited.

The run is asked first (`rebuy_refusal` / `addon_refusal`), so a purchase it would refuse is never charged. The
wallet key counts the player's purchases of that kind (`td:<t>:rebuy:<player>:<n>`), and the caller's own
Idempotency-Key finds the purchase it already asked for: a retried request is the same purchase, a new request
another one. If the run refuses the purchase once paid (the period ended meanwhile, the tournament was
cancelled), the money goes straight back.

A rebuy offer not answered in time counts as declined (`decline_lapsed`): the player is out.
"""

from __future__ import annotations

import contextlib
from datetime import datetime

from platform_kit.errors import Conflict, NotFound
from platform_kit.events import tournament as events
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps, offers, runs, tournaments
from tournament_director.adapters import wallet as wallet_requests
from tournament_director.adapters.http import Answer
from tournament_director.adapters.money_steps import MoneyStep, StepKind, StepStatus
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain.definition import AddonSettings, RebuySettings, TournamentDefinition
from tournament_director.domain.run import RunError, TournamentRun
from tournament_director.domain.run_messages import Message
from tournament_director.service import jackpots
from tournament_director.service.cancelled import refuse_if_cancelled
from tournament_director.service.commands import DeclineLapsedOffer, Purchase, Purchased, PurchaseKind
from tournament_director.service.context import Director
from tournament_director.service.money import drive, raise_unless_done, step_by_key
from tournament_director.service.runs import act_on_run

WALLET_KIND: dict[PurchaseKind, wallet_requests.PaidEntryKind] = {"rebuy": "rebuy", "addon": "add_on"}
STEP_KIND: dict[PurchaseKind, StepKind] = {"rebuy": StepKind.REBUY, "addon": StepKind.ADDON}


async def purchase(director: Director, command: Purchase) -> Purchased:
    tournament_id, player_id, kind = command.tournament_id, command.player_id, command.kind
    async with director.unit() as uow:
        tournament = await tournaments.get(uow.session, tournament_id)
        if tournament is None:
            raise NotFound("tournament_not_found", f"No tournament {tournament_id}.")
        registration = await tournaments.registration(uow.session, tournament_id, player_id)
        if registration is None:
            raise NotFound("not_registered", "The player is not in this tournament.")
        command.principal.require_player_scope(player_id, registration.concessionaire_id)
        recorded = await _record(director, uow.session, tournament, player_id, kind, command.client_key)
    step = await drive(director, recorded)
    raise_unless_done(step)
    if await step_by_key(director, _refund_key(step)) is not None:
        raise Conflict(f"{kind}_refused", f"The {kind} could no longer be applied; the payment was refunded.")
    offer = _offer(tournament.definition, kind)
    return Purchased(tournament_id, player_id, kind, offer.chips, offer.price.total_cents)


async def _record(
    director: Director,
    session: AsyncSession,
    tournament: TournamentRecord,
    player_id: str,
    kind: PurchaseKind,
    client_key: str,
) -> MoneyStep:
    """The purchase's money step: the one `client_key` already asked for, or a new one the run allows now."""
    tournament_id = tournament.tournament_id
    asked = await money_steps.find(session, tournament_id, STEP_KIND[kind], player_id, client_key)
    if asked is not None:
        return asked
    refuse_if_cancelled(tournament)
    run = await runs.load(session, tournament_id, director.rng, director.run_cache)
    if tournament.status is not Status.RUNNING or run is None or run.is_over:
        raise Conflict("not_running", f"The tournament is {tournament.status.value}.")
    now = max(director.now(), run.now)
    try:
        refusal = run.rebuy_refusal(player_id, now) if kind == "rebuy" else run.addon_refusal(player_id, now)
    except RunError:
        raise Conflict("not_in_tournament", "The player is not playing in this tournament.") from None
    if refusal is not None:
        raise Conflict(f"{kind}_refused", f"No {kind} now: {refusal.value}.", reason=refusal.value)
    earlier = [
        step
        for step in await money_steps.of_tournament(session, tournament_id, [STEP_KIND[kind]])
        if step.player_id == player_id
    ]
    if any(step.status is StepStatus.PENDING for step in earlier):
        raise Conflict("purchase_in_progress", f"A {kind} of this player is still being paid.")
    price = _offer(tournament.definition, kind).price
    contribution = sum(jackpots.contributions(tournament, price, director.settings.tax_rate_bps).values())
    request = wallet_requests.paid_entry(
        tournament_id,
        WALLET_KIND[kind],
        player_id,
        tournament.currency,
        price.prize_part_cents,
        price.fee_cents,
        contribution,
    )
    return await money_steps.record(
        session,
        tournament_id=tournament_id,
        player_id=player_id,
        kind=STEP_KIND[kind],
        key=f"{tournament_id}:{kind}:{player_id}:{len(earlier) + 1}",
        request=request,
        now=now,
        client_key=client_key,
    )


async def on_paid(director: Director, session: AsyncSession, step: MoneyStep, answer: Answer) -> None:
    """Completion of `rebuy` and `addon` steps: credit the chips, or give the money back if the run refuses."""
    if not answer.ok:
        return
    player = step.player_id
    assert player is not None
    kind: PurchaseKind = "rebuy" if step.kind is StepKind.REBUY else "addon"

    def buy(run: TournamentRun, now: datetime) -> tuple[Message, ...]:
        return run.rebuy(player, now) if kind == "rebuy" else run.addon(player, now)

    try:
        applied = await act_on_run(director, session, step.tournament_id, buy)
    except RunError:
        applied = False
    tournament = await tournaments.get(session, step.tournament_id)
    assert tournament is not None
    if not applied:
        body = step.request.body
        request = wallet_requests.refunds(
            step.tournament_id, tournament.currency, [(player, body["prize_part"], body["fee"])]
        )
        await money_steps.record(
            session,
            tournament_id=step.tournament_id,
            player_id=player,
            kind=StepKind.PURCHASE_REFUND,
            key=_refund_key(step),
            request=request,
            now=director.now(),
        )
        director.wake_money_worker_after_commit(session)
        return
    await offers.remove(session, step.tournament_id, player)
    offer = _offer(tournament.definition, kind)
    amounts = jackpots.contributions(tournament, offer.price, director.settings.tax_rate_bps)
    registration = await tournaments.registration(session, step.tournament_id, player)
    assert registration is not None
    await jackpots.credit(session, tournament, registration.concessionaire_id, amounts)
    run = await runs.peek(session, step.tournament_id, director.rng, director.run_cache)
    assert run is not None
    purchased = events.EntryPurchased(
        tournament_id=step.tournament_id,
        player_id=player,
        kind=kind,
        chips=offer.chips,
        price_cents=offer.price.total_cents,
        prize_pool_cents=run.prize_pool().pool_cents,
    )
    await director.runtime.outbox.add(session, purchased)


async def on_refunded(director: Director, session: AsyncSession, step: MoneyStep, answer: Answer) -> None:
    """Completion of `purchase_refund`: nothing more to do (the refusal was answered to the player)."""


async def decline_lapsed(director: Director, uow: UnitOfWork, command: DeclineLapsedOffer) -> None:
    """A rebuy offer ran out (P-4.2): declined — unless its payment is under way."""
    session, tournament_id, player_id = uow.session, command.tournament_id, command.player_id
    if any(
        step.kind is StepKind.REBUY for step in await money_steps.pending_for_player(session, tournament_id, player_id)
    ):
        return
    await offers.remove(session, tournament_id, player_id)
    with contextlib.suppress(RunError):  # answered meanwhile, or the tournament is over
        await act_on_run(director, session, tournament_id, lambda run, now: run.decline_rebuy(player_id, now))


def _refund_key(step: MoneyStep) -> str:
    return f"{step.idempotency_key.removeprefix('td:')}:refund"


def _offer(definition: TournamentDefinition, kind: PurchaseKind) -> RebuySettings | AddonSettings:
    """The rebuy or add-on the definition offers (the run refuses a purchase the definition does not offer)."""
    offer = definition.rebuy if kind == "rebuy" else definition.addon
    assert offer is not None, f"no {kind} in this definition"
    return offer
