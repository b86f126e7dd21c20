"""A tournament's life: registration opens, the tournament starts (a sit'n'go when full, a scheduled one at its
time or when an operator says so) or is cancelled — before the start with every entry back (P-3.2), or while
running by the P-10 calculator."""

from __future__ import annotations

from platform_kit.errors import Conflict
from platform_kit.events import tournament as events
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps, runs, tournaments
from tournament_director.adapters import wallet as wallet_requests
from tournament_director.adapters.money_steps import StepKind
from tournament_director.adapters.tournaments import Registration, RegistrationStatus, Status, TournamentRecord
from tournament_director.domain.cancellation import CancellationSettlement, refund_all_entries
from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.entries import Entry, EntryKind, PaymentForm
from tournament_director.domain.kinds import TournamentKind
from tournament_director.domain.run import TournamentRun, default_entry
from tournament_director.domain.run_results import refunds
from tournament_director.service import recurring, settlement
from tournament_director.service.commands import (
    Cancel,
    CancelAnswer,
    Cancelled,
    OpenRegistration,
    StartNow,
    StartScheduled,
)
from tournament_director.service.context import Director
from tournament_director.service.events import SitAndGoFilled
from tournament_director.service.principals import managed_tournament
from tournament_director.service.runs import carry_out

BELOW_MINIMUM = "below_minimum"


async def open_registration(director: Director, uow: UnitOfWork, command: OpenRegistration) -> None:
    tournament_id = command.tournament_id
    tournament = await tournaments.get(uow.session, tournament_id, lock=True)
    if tournament is None or tournament.status is not Status.ANNOUNCED:
        return
    await tournaments.set_status(uow.session, tournament_id, Status.REGISTERING, director.now())
    await uow.publish(events.RegistrationOpened(tournament_id=tournament_id))


async def on_filled(director: Director, uow: UnitOfWork, event: SitAndGoFilled) -> None:
    """P-3.1: a sit'n'go starts as soon as its last seat is paid for — once that payment committed, unless a
    player left meanwhile (it then waits for the next one)."""
    tournament = await tournaments.get(uow.session, event.tournament_id, lock=True)
    if tournament is None or tournament.status is not Status.REGISTERING:
        return
    if await tournaments.registered_count(uow.session, tournament.tournament_id) == tournament.definition.max_players:
        await start(director, uow.session, tournament)


async def start_scheduled(director: Director, uow: UnitOfWork, command: StartScheduled) -> None:
    """The start time came (P-3.2): start with whoever registered, or cancel and refund below the minimum."""
    session = uow.session
    tournament = await tournaments.get(session, command.tournament_id, lock=True)
    if tournament is None or tournament.status not in (Status.ANNOUNCED, Status.REGISTERING):
        return
    registered = await tournaments.registered_count(session, command.tournament_id)
    if registered < tournament.definition.min_players:
        await cancel_before_start(director, session, tournament, BELOW_MINIMUM, rule="P-3.2")
    else:
        await start(director, session, tournament)


async def start_now(director: Director, command: StartNow) -> None:
    """An operator starts a scheduled tournament before its time (never below its minimum)."""
    async with director.unit() as uow:
        tournament = await managed_tournament(uow.session, command.tournament_id, command.principal)
        if tournament.status not in (Status.ANNOUNCED, Status.REGISTERING):
            raise Conflict(
                "not_startable",
                f"The tournament is {tournament.status.value}.",
                tournament_status=tournament.status.value,
            )
        if tournament.definition.kind is TournamentKind.SIT_AND_GO:
            raise Conflict(
                "sit_and_go_starts_when_full", "A sit'n'go starts by itself when its seats are taken (P-3.1)."
            )
        registered = await tournaments.registered_count(uow.session, tournament.tournament_id)
        minimum = tournament.definition.min_players
        if registered < minimum:
            raise Conflict(
                "not_enough_players",
                f"{registered} players registered; this tournament starts with at least {minimum}.",
                registered=registered,
                min_players=minimum,
            )
        await start(director, uow.session, tournament)


async def start(director: Director, session: AsyncSession, tournament: TournamentRecord) -> None:
    """Seat the registered players and deal (P-5, P-6); a cash freeroll's sponsored entries are bought now (P-9.2);
    a recurring sit'n'go's successor opens (issue 15, item 13)."""
    t = tournament.tournament_id
    definition = tournament.definition
    registered = await tournaments.registrations_of(session, t, [RegistrationStatus.REGISTERED])
    players = [registration.player_id for registration in registered]
    entries = {registration.player_id: entry_of(registration, definition) for registration in registered}
    now = director.now()
    run, messages = TournamentRun.start(
        t,
        definition,
        players,
        director.rng,
        now,
        currency=tournament.currency,
        entries=entries,
        jackpot_programmes=tournament.jackpots,
    )
    await tournaments.set_status(session, t, Status.RUNNING, now)
    await recurring.reopen(director, session, tournament)
    await carry_out(director, session, tournament, run, messages)
    sponsor = tournament.concessionaire_id
    for player, entry in entries.items():
        if entry.kind is EntryKind.SPONSORED and sponsor is not None:
            # Only the prize part moves (the fee would go from the sponsor's account to its own margin), but the
            # whole entry is taxed (P-8.7, P-9.2).
            request = wallet_requests.sponsored_entry(t, player, sponsor, tournament.currency, entry.price)
            await money_steps.record(
                session,
                tournament_id=t,
                player_id=player,
                kind=StepKind.SPONSORED_ENTRY,
                key=f"{t}:sponsored:{player}",
                request=request,
                now=now,
            )
            director.wake_money_worker_after_commit(session)


def entry_of(registration: Registration, definition: TournamentDefinition) -> Entry:
    """How a registration entered: the buy-in in cash, by ticket or by a satellite's seat (P-3.4), or a
    freeroll entry."""
    if registration.entry == "ticket":
        return Entry(EntryKind.BUY_IN, definition.buy_in, PaymentForm.TICKET)
    if registration.entry == "satellite":
        return Entry(EntryKind.SATELLITE, definition.buy_in, PaymentForm.TICKET)
    return default_entry(definition)


async def cancel_by_operator(director: Director, command: Cancel) -> CancelAnswer:
    """An operator's cancellation; a tournament cancelled already answers as it stands."""
    async with director.unit() as uow:
        tournament = await managed_tournament(uow.session, command.tournament_id, command.principal)
        if tournament.status is Status.CANCELLED:
            return CancelAnswer(tournament.end_reason, None)
        return CancelAnswer(command.reason, await cancel(director, uow.session, tournament, command.reason))


async def cancel(director: Director, session: AsyncSession, tournament: TournamentRecord, reason: str) -> Cancelled:
    """An operator cancels (P-10): before the start every entry comes back; while running, the calculator
    decides."""
    if tournament.status in (Status.ANNOUNCED, Status.REGISTERING):
        return await cancel_before_start(director, session, tournament, reason, rule="P-10")
    run = None
    if tournament.status is Status.RUNNING:
        run = await runs.load(session, tournament.tournament_id, director.rng, director.run_cache)
        assert run is not None, f"{tournament.tournament_id} is running without a run"
    if run is None or run.is_over:
        # A run over is finished: its settlement is under way (`RunFinished`, reacted to after its last hand).
        status = tournament.status.value if run is None else Status.FINISHED.value
        raise Conflict("not_cancellable", f"The tournament is {status}.", tournament_status=status)
    cancellation = run.cancel(max(director.now(), run.now), reason)
    await tournaments.set_status(session, tournament.tournament_id, Status.CANCELLED, run.now, reason=reason)
    await carry_out(director, session, tournament, run, cancellation.messages)
    await settlement.cancelled(director, session, tournament, cancellation.settlement)
    [announced] = [m for m in cancellation.messages if isinstance(m, events.TournamentCancelled)]
    return Cancelled(cancellation.settlement.rule, announced.refunds)


async def cancel_before_start(
    director: Director, session: AsyncSession, tournament: TournamentRecord, reason: str, *, rule: str
) -> Cancelled:
    """Every paid entry back in full, in the form it was paid (P-3.2, P-10.12). Freeroll entrants paid nothing
    (their sponsored entries are bought at the start)."""
    t = tournament.tournament_id
    returned, registered = await every_entry_back(session, tournament, rule)
    await tournaments.set_status(session, t, Status.CANCELLED, director.now(), reason=reason)
    cancelled = events.TournamentCancelled(tournament_id=t, reason=reason, refunds=refunds(returned, registered))
    await director.runtime.outbox.add(session, cancelled)
    await settlement.cancelled(director, session, tournament, returned)
    return Cancelled(rule, cancelled.refunds)


async def every_entry_back(
    session: AsyncSession, tournament: TournamentRecord, rule: str
) -> tuple[CancellationSettlement, list[str]]:
    """Before the start: every paid entry back in full, in the form it was paid; and who is registered."""
    registered = await tournaments.registrations_of(session, tournament.tournament_id, [RegistrationStatus.REGISTERED])
    paid = {r.player_id: [entry_of(r, tournament.definition)] for r in registered if r.entry != "freeroll"}
    lines = refund_all_entries(paid)
    returned = CancellationSettlement(
        rule, residual_prize_pool_cents=0, capped_by_residual=False, lines=lines, overlays=()
    )
    return returned, [r.player_id for r in registered]
