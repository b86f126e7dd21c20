"""Calling a running tournament and carrying out what it says, in the caller's transaction.

`act_on_run` loads the run (row locked: calls on one tournament never interleave), makes one call, and
`carry_out` publishes its messages in order through the outbox — table commands to the shard that owns each
table, tournament events to the exchange — records what the service must remember (rebuy offers, standings,
jackpot awards) and saves the new snapshot. All of it commits together, or none. A run that finished raises
`RunFinished`: the tournament is settled after this commit (`settlement.on_run_finished`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from platform_kit.events import tournament as events
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import offers, runs, tournaments
from tournament_director.adapters.bus_messages import table_command
from tournament_director.adapters.offers import RebuyOffer
from tournament_director.adapters.tournaments import Standing, TournamentRecord
from tournament_director.domain import run_messages
from tournament_director.domain.run import TournamentRun
from tournament_director.domain.run_messages import Message, OfferRebuy
from tournament_director.service import jackpots
from tournament_director.service.commands import ChangeLevel
from tournament_director.service.context import Director
from tournament_director.service.events import RunFinished

RunCall = Callable[[TournamentRun, datetime], Sequence[Message]]


async def act_on_run(director: Director, session: AsyncSession, tournament_id: str, call: RunCall) -> bool:
    """Make `call(run, now)` on the tournament's run and carry out its messages. False when there is no run in
    play (not started, or over). A `RunError` from the call propagates, and nothing is saved."""
    # Rows are always locked tournament first, then run: two transactions never wait for each other in a circle.
    tournament = await tournaments.get(session, tournament_id, lock=True)
    run = await runs.load(session, tournament_id, director.rng, director.run_cache)
    if tournament is None or run is None or run.is_over:
        return False
    # The run refuses time going back; clocks of different replicas may disagree by a little.
    now = max(director.now(), run.now)
    messages = call(run, now)
    await carry_out(director, session, tournament, run, messages)
    return True


async def change_level(director: Director, uow: UnitOfWork, command: ChangeLevel) -> None:
    """P-7 (a clock duty): announce the level or break that began, offer add-ons, deal again after a break."""
    await act_on_run(director, uow.session, command.tournament_id, lambda run, now: run.on_clock(now))


async def carry_out(
    director: Director,
    session: AsyncSession,
    tournament: TournamentRecord,
    run: TournamentRun,
    messages: Sequence[Message],
) -> None:
    outbox = director.runtime.outbox
    now = run.now
    showdown_qualifiers: dict[tuple[str, str], list[str]] = {}
    for message in messages:
        if isinstance(message, run_messages.TableCommand):
            command, routing_key = table_command(message, director.timers, director.settings.table_engine_shards)
            await outbox.add(session, command, routing_key=routing_key)
            continue
        if isinstance(message, OfferRebuy):
            expires_at = now + director.rebuy_offer_time
            await offers.put(
                session, RebuyOffer(tournament.tournament_id, message.player_id, message.table_id, expires_at)
            )
            await outbox.add(session, message.offered(expires_at), occurred_at=now)
            continue
        match message:
            case events.PlayerEliminated(player_id=player, position=position, prize_cents=prize):
                await tournaments.put_standing(
                    session, tournament.tournament_id, Standing(player, position, prize, False)
                )
            case events.JackpotQualified(programme_id=programme, player_id=player, hand_id=str() as hand_id):
                showdown_qualifiers.setdefault((programme, hand_id), []).append(player)
        await outbox.add(session, message, occurred_at=now)
    for (programme_id, hand_id), players in showdown_qualifiers.items():
        await jackpots.award(director, session, tournament, programme_id, players, reference=hand_id)
    await runs.save(session, run, now, director.run_cache)
    if run.outcome is not None and any(isinstance(message, events.TournamentFinished) for message in messages):
        await director.reactions.raise_event(session, RunFinished(tournament.tournament_id))
