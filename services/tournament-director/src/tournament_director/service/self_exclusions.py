"""A player's self-exclusion (issue 17, docs/player-protection.md), applied when `gateway.player.self_excluded`
arrives: every registration of theirs holding a paid seat in a tournament not yet started is withdrawn and given
back as it was paid (cash refunded, a ticket issued again). Tournaments already under way are not touched: the
gateway stops the player acting in them.

Everything happens in the unit of work of the transaction that records the message in the inbox
(`WithdrawSelfExcluded`), so a redelivery changes nothing; the refunds are money steps for the worker, each
under its registration's own key.
"""

from __future__ import annotations

from platform_kit.unit_of_work import UnitOfWork

from tournament_director.adapters import tournaments
from tournament_director.adapters.money_steps import StepKind
from tournament_director.adapters.tournaments import RegistrationStatus, Status
from tournament_director.service import registration as registrations
from tournament_director.service.commands import WithdrawSelfExcluded
from tournament_director.service.context import Director

NOT_STARTED = (Status.ANNOUNCED, Status.REGISTERING)


async def withdraw(director: Director, uow: UnitOfWork, command: WithdrawSelfExcluded) -> None:
    session = uow.session
    for registration in await tournaments.registrations_of_player(session, command.player_id):
        if registration.status is not RegistrationStatus.REGISTERED:
            # No paid seat. (A buy-in still being confirmed at this very instant lands as a registration: the
            # same narrow race as a ban's; the gateway refuses every registration from now on.)
            continue
        tournament = await tournaments.get(session, registration.tournament_id, lock=True)
        assert tournament is not None
        if tournament.status in NOT_STARTED:
            await registrations.give_back(director, session, tournament, registration, kind=StepKind.EXCLUSION_REFUND)
