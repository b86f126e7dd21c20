"""Registration and unregistration before the start (P-3), paid through the wallet.

Registering: the player must be eligible (rating: tiers, invitation, bans, P-11.7, P-12.5). A seat is then
held (`paying`) and the money step recorded in one unit of work; the wallet is called with the step's key, and
its answer registers the player or frees the seat, in the unit of work that records it. That is the one wallet
call of a registration: the entry is sent acting for the player's concessionaire (`X-Concessionaire-Id`, stored
with the step and sent again with it), so the wallet refuses a partner's entry for another concessionaire's
player, and opens the player's account in the tournament's currency if it has none (an empty account: refused
`insufficient_funds`). A sit'n'go filled by that answer starts once it committed (`SitAndGoFilled`).

A freeroll entrant pays nothing: registered at once, whatever entry the request names, its one wallet call
opening its account (`_open_account`); a `freeroll` entry elsewhere is refused rather than charged. A ticket
entry moves the ticket's value from the escrow that backs it (P-3.4); so does a satellite entry, which takes the
seat the player won in one of the tournament's satellites (no code to type). A target closed to buy-ins
(`direct_buy_in` false) takes only those.

Leaving (the player, a sanction, or a payment confirmed after the start): the entry comes back as it was paid
— cash through the wallet, a ticket as a fresh ticket (P-10.12).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from platform_kit.errors import Conflict, Forbidden, NotFound, ProblemError, Unavailable
from platform_kit.events import tournament as events
from platform_kit.keyed_batches import Outcome
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import money_steps, tickets, tournaments
from tournament_director.adapters import wallet as wallet_requests
from tournament_director.adapters.http import Answer, ServiceUnavailable
from tournament_director.adapters.money_steps import MoneyStep, StepKind
from tournament_director.adapters.tickets import Ticket
from tournament_director.adapters.tournaments import (
    HOLDING_A_SEAT,
    Registration,
    RegistrationStatus,
    Status,
    TournamentRecord,
)
from tournament_director.domain.kinds import TournamentKind
from tournament_director.service import jackpots
from tournament_director.service import tickets as ticket_service
from tournament_director.service.cancelled import refuse_if_cancelled
from tournament_director.service.commands import Registered, RegisterPlayer, Unregister
from tournament_director.service.context import Director
from tournament_director.service.events import SitAndGoFilled
from tournament_director.service.money import drive, drive_in_batches, raise_unless_done, refusal, step_by_key

OPEN = (Status.ANNOUNCED, Status.REGISTERING)
#: Refund step kind -> why the player left (`tournament.player.unregistered`).
REFUND_REASONS = {
    StepKind.UNREGISTER_REFUND: "player",
    StepKind.SANCTION_REFUND: "sanction",
    StepKind.EXCLUSION_REFUND: "self_exclusion",
    StepKind.LATE_REFUND: "late_payment",
}


async def register(director: Director, command: RegisterPlayer, *, looked_again: bool = False) -> Registered:
    """Two units of work: the seat held with its payment recorded, then (after the wallet's answer) the answer
    applied; a freeroll or an entry paid from this tournament's own escrow is registered in the first.
    `looked_again`: this request found its seat held by another run of itself, and is answered as its repeat."""
    t, player = command.tournament_id, command.player_id
    # A read without a transaction (one round trip on PostgreSQL): what it finds is checked again where it
    # matters, under the seat's lock in `_hold_seat`.
    async with director.runtime.units.reading() as session:
        tournament, previous = await _tournament(session, t, player)
        paid = None  # the payment of an earlier request: this one may be its repeat
        if previous is not None and previous.status in (RegistrationStatus.PAYING, RegistrationStatus.REGISTERED):
            paid = await money_steps.by_key(session, _payment_key(previous))
    if previous is not None and previous.status is RegistrationStatus.PAYING:
        # The same registration, asked again.
        assert paid is not None, f"{previous} is paying without a money step"
        return await _paid(director, paid)
    if previous is not None and previous.status is RegistrationStatus.REGISTERED:
        if command.client_key is not None and paid is not None and paid.client_key == command.client_key:
            return await _registered(director, t, player)  # a retry of the request
        raise Conflict("already_registered", "The player is registered for this tournament.")
    refuse_if_cancelled(tournament)
    _refuse_unless_registering(tournament)
    if command.entry == "freeroll" and tournament.definition.freeroll is None:
        # 422, as the entry was refused before `freeroll` was a word of the registration API.
        raise ProblemError(
            "not_a_freeroll", "This tournament is not a freeroll: enter with buy_in, ticket or satellite.", status=422
        )
    await _check_eligible(director, tournament, player)
    if tournament.definition.freeroll is not None:
        await _open_account(director, tournament, command)
    try:
        held = await director.seat_holds.submit(t, command)
    except Conflict as refused:
        if refused.code != "already_registered" or command.client_key is None or looked_again:
            raise
        # Another run of this very request (its Idempotency-Key's first run, taken for dead while it was only
        # slow: service/idempotent.py) held the seat after this one looked. Looked at again, the seat is this
        # request's: answered as its repeat (the payment driven, or the registration read), not refused. Seen in
        # a 100-sit'n'go capacity run: a client told `already_registered` for its own registration.
        return await register(director, command, looked_again=True)
    return held if isinstance(held, Registered) else await _paid(director, held)


async def _paid(director: Director, step: MoneyStep) -> Registered:
    """The registration once its payment step is driven (its answer applied with the other answers of the
    tournament that came in meanwhile: `Director.entry_answers`): answered from the unit of work that applied
    it when this request's batch did, read back when another driver did (or the player was too late and is
    refunded: `_registered` refuses)."""
    step, outcome = await drive_in_batches(director, step, director.entry_answers)
    raise_unless_done(step)
    if isinstance(outcome, Registered):
        return outcome
    assert step.player_id is not None
    return await _registered(director, step.tournament_id, step.player_id)


async def _tournament(
    session: AsyncSession, tournament_id: str, player_id: str
) -> tuple[TournamentRecord, Registration | None]:
    """The tournament and the player's registration in it, if any (not locked)."""
    found = await tournaments.with_registration(session, tournament_id, player_id)
    if found is None:
        raise NotFound("tournament_not_found", f"No tournament {tournament_id}.")
    return found


async def _check_eligible(director: Director, tournament: TournamentRecord, player_id: str) -> None:
    restrictions = tournament.definition.access
    invited = player_id in tournament.invited_player_ids
    try:
        verdict = await director.rating.eligibility(player_id, tournament.tournament_id, restrictions, invited)
    except ServiceUnavailable:
        raise Unavailable("rating_unavailable", "Eligibility cannot be checked now; try again.") from None
    if not verdict.eligible:
        raise Forbidden(
            "not_eligible",
            f"The player may not enter this tournament: {verdict.reason}.",
            reason=verdict.reason,
            tier=verdict.tier,
        )


async def _open_account(director: Director, tournament: TournamentRecord, request: RegisterPlayer) -> None:
    """A freeroll's entrant pays nothing, so no entry opens its account: opened here, as its prizes are paid
    into it and a sponsor's entry (P-9.2) is for a player the wallet knows. A paid entry opens it itself."""
    try:
        answer = await director.wallet.open_account(request.player_id, request.concessionaire_id, tournament.currency)
    except ServiceUnavailable:
        raise Unavailable("wallet_unavailable", "The wallet cannot be reached; try again.") from None
    if not answer.ok:
        raise refusal(answer)


@dataclass(frozen=True)
class _Hold:
    """A seat a request is to hold: its registration, the ticket it enters with, whether it replaces the
    player's earlier registration (a new attempt after leaving or failing)."""

    registration: Registration
    ticket: Ticket | None
    client_key: str | None
    replacing: bool


async def hold_seats(
    director: Director, tournament_id: str, requests: Sequence[RegisterPlayer]
) -> list[Outcome[MoneyStep | Registered]]:
    """Hold a seat for each request and record its payment, in ONE unit of work for all the tournament's
    requests that came in together (`Director.seat_holds`): the row locked once, the seats counted once, the
    registrations and payments written a statement for all. Registered at once when there is nothing to pay
    (a freeroll, a ticket given back here earlier). A request's refusal is its own and is decided before
    anything is written; an error of the database fails the batch, and nothing of it is kept."""
    async with director.unit() as uow:
        session = uow.session
        tournament = await tournaments.get(session, tournament_id, lock=True)
        assert tournament is not None
        try:
            refuse_if_cancelled(tournament)
            _refuse_unless_registering(tournament)
        except ProblemError as closed:
            return [closed] * len(requests)
        earlier = await tournaments.registrations_by_player(session, tournament_id, [r.player_id for r in requests])
        taken = await tournaments.seats_taken(session, tournament_id)
        outcomes: list[Outcome[MoneyStep | Registered] | _Hold] = []  # a hold: what it writes, below
        holds: list[_Hold] = []
        for request in requests:
            try:
                hold = await _hold(director, session, tournament, request, earlier.get(request.player_id), taken)
            except ProblemError as refused:
                outcomes.append(refused)
                continue
            earlier[request.player_id] = hold.registration  # the same player again in this batch: already in
            taken += 1
            holds.append(hold)
            outcomes.append(hold)
        written = iter(await _write_holds(director, session, tournament, holds))
    return [next(written) if isinstance(outcome, _Hold) else outcome for outcome in outcomes]


def _refuse_unless_registering(tournament: TournamentRecord) -> None:
    if tournament.status is not Status.REGISTERING:
        raise Conflict("registration_closed", f"Registration is not open: the tournament is {tournament.status.value}.")


async def _hold(
    director: Director,
    session: AsyncSession,
    tournament: TournamentRecord,
    request: RegisterPlayer,
    previous: Registration | None,
    taken: int,
) -> _Hold:
    """The seat `request` holds with `taken` seats taken before it, or its refusal; reads only."""
    if previous is not None and previous.status in HOLDING_A_SEAT:
        raise Conflict("already_registered", "The player is registered for this tournament.")
    definition = tournament.definition
    if taken >= definition.max_players:
        raise Conflict("tournament_full", "Every seat is taken.", max_players=definition.max_players)
    price = definition.buy_in
    entry, ticket, status = "buy_in", None, RegistrationStatus.PAYING
    if definition.freeroll is not None:
        entry, status, price = "freeroll", RegistrationStatus.REGISTERED, definition.entry_price
    elif request.entry in ("ticket", "satellite"):
        ticket = await _ticket_for(session, request, tournament)
        entry = request.entry
        if ticket.source_tournament_id == tournament.tournament_id:
            status = RegistrationStatus.REGISTERED  # given back here earlier: its value never left this escrow
    elif not definition.direct_buy_in:
        raise Forbidden(
            "satellite_entry_only",
            "This tournament is entered only with a seat won in one of its satellites (or a ticket).",
        )
    registration = Registration(
        tournament_id=tournament.tournament_id,
        player_id=request.player_id,
        concessionaire_id=request.concessionaire_id,
        entry=entry,
        ticket_code=None if ticket is None else ticket.code,
        status=status,
        attempt=1 if previous is None else previous.attempt + 1,
        prize_part_cents=price.prize_part_cents,
        fee_cents=price.fee_cents,
        registered_at=director.now(),
    )
    return _Hold(registration, ticket, request.client_key, replacing=previous is not None)


async def _write_holds(
    director: Director, session: AsyncSession, tournament: TournamentRecord, holds: Sequence[_Hold]
) -> list[MoneyStep | Registered]:
    """The holds written: each one's payment step, or its registration's answer when nothing is paid."""
    now = director.now()
    for hold in holds:
        if hold.ticket is not None:
            await tickets.use(session, hold.ticket.code, tournament.tournament_id, now)
        if hold.replacing:
            await tournaments.replace_registration(session, hold.registration)
    await tournaments.insert_registrations(session, [hold.registration for hold in holds if not hold.replacing])
    paying = [hold for hold in holds if hold.registration.status is RegistrationStatus.PAYING]
    payments = [_payment(director, tournament, hold) for hold in paying]
    steps = iter(await money_steps.record_all(session, payments, now))
    free = [hold.registration for hold in holds if hold.registration.status is RegistrationStatus.REGISTERED]
    registered = iter(await _announce(director, session, tournament, free))
    return [
        next(steps) if hold.registration.status is RegistrationStatus.PAYING else next(registered) for hold in holds
    ]


async def _ticket_for(session: AsyncSession, request: RegisterPlayer, tournament: TournamentRecord) -> Ticket:
    """The ticket a ticket entry names, or the seat a satellite entry takes (P-3.4)."""
    if request.entry == "satellite":
        seat = await tickets.satellite_seat(session, request.player_id, tournament.tournament_id)
        if seat is None:
            raise NotFound("no_satellite_seat", "The player holds no seat won in a satellite of this tournament.")
        return seat
    if not request.ticket_code:
        raise ProblemError("ticket_code_missing", "A ticket entry names its ticket_code.", status=422)
    return await ticket_service.usable(session, request.ticket_code, request.player_id, tournament)


def _payment(director: Director, tournament: TournamentRecord, hold: _Hold) -> money_steps.NewStep:
    """The wallet call that pays a held seat: the ticket's value out of its escrow, or the buy-in."""
    t, registration = tournament.tournament_id, hold.registration
    if hold.ticket is not None:
        kind = StepKind.TICKET_ENTRY
        request = wallet_requests.ticket_entry(t, registration.player_id, tournament.currency, hold.ticket)
    else:
        price = tournament.definition.buy_in
        contribution = sum(jackpots.contributions(tournament, price, director.settings.tax_rate_bps).values())
        kind = StepKind.BUY_IN
        request = wallet_requests.paid_entry(
            t, "buy_in", registration.player_id, tournament.currency, price.prize_part_cents, price.fee_cents,
            contribution,
        )  # fmt: skip
    return money_steps.NewStep(
        tournament_id=t,
        kind=kind,
        key=_payment_key(registration),
        request=request.acting_for(registration.concessionaire_id),
        player_id=registration.player_id,
        client_key=hold.client_key,
    )


async def _registered(director: Director, tournament_id: str, player_id: str) -> Registered:
    async with director.runtime.units.reading() as session:
        registration = await tournaments.registration(session, tournament_id, player_id)
        count = await tournaments.registered_count(session, tournament_id)
    assert registration is not None
    if registration.status is not RegistrationStatus.REGISTERED:
        raise Conflict(
            "registration_closed", "The tournament started before the payment was confirmed; it is refunded."
        )
    return Registered(tournament_id, player_id, registration.entry, count)


async def _announce(
    director: Director, session: AsyncSession, tournament: TournamentRecord, registered: Sequence[Registration]
) -> list[Registered]:
    """Players just registered, in order: an event each (numbered as they came in), the sit'n'go filled, and
    the requests' answers."""
    if not registered:
        return []
    t = tournament.tournament_id
    count = await tournaments.registered_count(session, t)
    answers = [
        Registered(t, registration.player_id, registration.entry, number)
        for number, registration in enumerate(registered, start=count - len(registered) + 1)
    ]
    await director.runtime.outbox.add_many(
        session,
        (
            events.PlayerRegistered(
                tournament_id=t, player_id=answer.player_id, entry=answer.entry, registered=answer.registered
            )
            for answer in answers
        ),
    )
    if tournament.definition.kind is TournamentKind.SIT_AND_GO and count == tournament.definition.max_players:
        await director.reactions.raise_event(session, SitAndGoFilled(t))  # P-3.1
    return answers


async def on_entry_paid(
    director: Director, session: AsyncSession, step: MoneyStep, answer: Answer
) -> Registered | None:
    """Completion of one `buy_in` or `ticket_entry` step (the money worker's): `on_entries_paid`."""
    (outcome,) = await on_entries_paid(director, session, [(step, answer)])
    return outcome


async def on_entries_paid(
    director: Director, session: AsyncSession, answered: Sequence[tuple[MoneyStep, Answer]]
) -> list[Registered | None]:
    """Completion of `buy_in` and `ticket_entry` steps of one tournament, in one unit of work: each one's
    registration's answer when the player is registered (`_paid` answers with it), else None."""
    t = answered[0][0].tournament_id
    assert all(step.tournament_id == t for step, _ in answered)
    tournament = await tournaments.get(session, t, lock=True)
    assert tournament is not None
    registrations = await tournaments.registrations_by_player(session, t, [_player_of(step) for step, _ in answered])
    # What one buy-in pays into each jackpot programme: the same for every entry of the tournament.
    per_entry = jackpots.contributions(tournament, tournament.definition.buy_in, director.settings.tax_rate_bps)
    failed: list[str] = []
    contributions: dict[str, Counter[str]] = {}  # concessionaire -> programme -> cents
    registering: dict[str, Registration] = {}
    for step, answer in answered:
        registration = registrations[_player_of(step)]
        if not answer.ok:
            failed.append(registration.player_id)
            if registration.ticket_code is not None:
                await tickets.use(session, registration.ticket_code, None, None)
            continue
        if step.kind is StepKind.BUY_IN:
            contributions.setdefault(registration.concessionaire_id, Counter()).update(per_entry)
        if tournament.status is not Status.REGISTERING or registration.status is not RegistrationStatus.PAYING:
            await give_back(director, session, tournament, registration, kind=StepKind.LATE_REFUND)
            continue
        registering[registration.player_id] = registration
    if failed:
        await tournaments.set_registrations_status(session, t, failed, RegistrationStatus.FAILED)
    for concessionaire, amounts in sorted(contributions.items()):
        await jackpots.credit(session, tournament, concessionaire, amounts)
    if registering:
        await tournaments.set_registrations_status(session, t, list(registering), RegistrationStatus.REGISTERED)
    by_player = {
        answer.player_id: answer
        for answer in await _announce(director, session, tournament, list(registering.values()))
    }
    return [by_player.get(_player_of(step)) for step, _ in answered]


def _player_of(step: MoneyStep) -> str:
    assert step.player_id is not None, f"{step} pays for nobody's registration"
    return step.player_id


async def unregister(director: Director, command: Unregister) -> int:
    """The player leaves before the start; returns the cash refunded (0 for a ticket or a freeroll)."""
    principal, tournament_id, player_id = command.principal, command.tournament_id, command.player_id
    async with director.unit() as uow:
        session = uow.session
        tournament = await tournaments.get(session, tournament_id, lock=True)
        if tournament is None:
            raise NotFound("tournament_not_found", f"No tournament {tournament_id}.")
        registration = await tournaments.registration(session, tournament_id, player_id)
        if registration is None or registration.status in (RegistrationStatus.FAILED, RegistrationStatus.FORFEITED):
            raise NotFound("not_registered", "The player is not registered for this tournament.")
        principal.require_player_scope(player_id, registration.concessionaire_id)
        if registration.status is RegistrationStatus.PAYING:
            raise Conflict("payment_in_progress", "The registration's payment is still being confirmed.")
        refund = None
        if registration.status is RegistrationStatus.REGISTERED:
            refuse_if_cancelled(tournament)
            if tournament.status not in OPEN:
                raise Conflict("already_started", f"The tournament is {tournament.status.value}: too late to leave.")
            refund = await give_back(director, session, tournament, registration, kind=StepKind.UNREGISTER_REFUND)
    if registration.status is RegistrationStatus.REFUNDING:
        refund = await step_by_key(director, _refund_key(registration))
    if refund is not None:
        raise_unless_done(await drive(director, refund))
    return registration.prize_part_cents + registration.fee_cents if registration.entry == "buy_in" else 0


async def give_back(
    director: Director,
    session: AsyncSession,
    tournament: TournamentRecord,
    registration: Registration,
    *,
    kind: StepKind,
) -> MoneyStep | None:
    """The entry back as it was paid; `kind` says why (`REFUND_REASONS`). Returns the refund's money step, or
    None when nothing goes through the wallet (a ticket comes back as a fresh one; a freeroll cost nothing)."""
    t, player = tournament.tournament_id, registration.player_id
    if registration.entry == "buy_in":
        await tournaments.set_registration_status(session, t, player, RegistrationStatus.REFUNDING)
        request = wallet_requests.refunds(
            t, tournament.currency, [(player, registration.prize_part_cents, registration.fee_cents)]
        )
        step = await money_steps.record(
            session,
            tournament_id=t,
            player_id=player,
            kind=kind,
            key=_refund_key(registration),
            request=request,
            now=director.now(),
        )
        if kind is not StepKind.UNREGISTER_REFUND:
            director.wake_money_worker_after_commit(session)
        return step
    if registration.ticket_code is not None:
        await ticket_service.issue(
            director,
            session,
            player_id=player,
            source=tournament,
            prize_part_cents=registration.prize_part_cents,
            fee_cents=registration.fee_cents,
            reason="unregistration",
        )
    await _unregistered(director, session, t, player, 0, REFUND_REASONS[kind])
    return None


async def on_refunded(director: Director, session: AsyncSession, step: MoneyStep, answer: Answer) -> None:
    """Completion of the refund steps of `give_back`."""
    assert step.player_id is not None
    if not answer.ok:
        return  # logged by the money worker: a refund out of the escrow is never expected to be refused
    refunded = sum(item["prize_part"] + item["fee"] for item in step.request.body["refunds"])
    await _unregistered(director, session, step.tournament_id, step.player_id, refunded, REFUND_REASONS[step.kind])


async def forfeit(
    director: Director, session: AsyncSession, tournament: TournamentRecord, registration: Registration
) -> None:
    """P-12.5: removed by a sanction whose entry is forfeit: nothing comes back."""
    t, player = tournament.tournament_id, registration.player_id
    await tournaments.set_registration_status(session, t, player, RegistrationStatus.FORFEITED)
    count = await tournaments.registered_count(session, t)
    left = events.PlayerUnregistered(
        tournament_id=t, player_id=player, refunded_cents=0, registered=count, reason="sanction", forfeited=True
    )
    await director.runtime.outbox.add(session, left)


async def _unregistered(
    director: Director, session: AsyncSession, tournament_id: str, player_id: str, refunded: int, reason: str
) -> None:
    await tournaments.set_registration_status(session, tournament_id, player_id, RegistrationStatus.UNREGISTERED)
    count = await tournaments.registered_count(session, tournament_id)
    left = events.PlayerUnregistered(
        tournament_id=tournament_id,
        player_id=player_id,
        refunded_cents=refunded,
        registered=count,
        reason=reason,
    )
    await director.runtime.outbox.add(session, left)


def _payment_key(registration: Registration) -> str:
    """The wallet key of a registration's payment: one per attempt, the same for every retry of it."""
    what = "buy_in" if registration.ticket_code is None else "ticket"
    return f"{registration.tournament_id}:{what}:{registration.player_id}:{registration.attempt}"


def _refund_key(registration: Registration) -> str:
    return f"{registration.tournament_id}:refund:{registration.player_id}:{registration.attempt}"
