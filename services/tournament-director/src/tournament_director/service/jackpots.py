"""Progressive jackpots (P-8.6): each paid entry funds the tournament's programmes from its fee; a qualifier
receives their programme's fund, paid by the wallet from their concessionaire's jackpot fund.

Each concessionaire's players fund that concessionaire's jackpot account (the wallet credits the fee's
contribution there), so a programme's fund is kept per concessionaire, and a qualifier is paid from their own
concessionaire's share. Several qualifiers at once split it (P-8.5 leftover cents, `split_jackpot`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from platform_kit.events import tournament as events
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import jackpot_store, money_steps, tournaments
from tournament_director.adapters import wallet as wallet_requests
from tournament_director.adapters.money_steps import StepKind
from tournament_director.adapters.tournaments import TournamentRecord
from tournament_director.domain.entries import Price
from tournament_director.domain.jackpots import (
    WinStreakCondition,
    jackpot_contribution_cents,
    split_jackpot,
    streak_qualifiers,
)
from tournament_director.domain.run_results import TournamentOutcome
from tournament_director.service.context import Director


def contributions(tournament: TournamentRecord, price: Price, tax_rate_bps: int) -> dict[str, int]:
    """What one entry at `price` pays into each of the tournament's programmes."""
    return {
        programme.programme_id: jackpot_contribution_cents(programme, price, tax_rate_bps)
        for programme in tournament.jackpots
    }


async def credit(
    session: AsyncSession, tournament: TournamentRecord, concessionaire_id: str, amounts: Mapping[str, int]
) -> None:
    """An entry's contributions reached the concessionaire's jackpot account: add them to the programmes."""
    for programme_id, amount in amounts.items():
        if amount:
            await jackpot_store.add_to_fund(session, programme_id, concessionaire_id, tournament.currency, amount)


async def award(
    director: Director,
    session: AsyncSession,
    tournament: TournamentRecord,
    programme_id: str,
    players: Sequence[str],
    *,
    reference: str,
) -> None:
    """Pay the qualifiers of one programme for one event (`reference`: the hand, or `streak`)."""
    by_concessionaire: dict[str, list[str]] = {}
    for player in players:
        registration = await tournaments.registration(session, tournament.tournament_id, player)
        if registration is not None:
            by_concessionaire.setdefault(registration.concessionaire_id, []).append(player)
    for concessionaire, qualifiers in sorted(by_concessionaire.items()):
        fund = await jackpot_store.fund_balance(session, programme_id, concessionaire, tournament.currency)
        for player, amount in split_jackpot(fund, qualifiers).items():
            if amount <= 0:
                continue
            await jackpot_store.add_to_fund(session, programme_id, concessionaire, tournament.currency, -amount)
            await money_steps.record(
                session,
                tournament_id=tournament.tournament_id,
                player_id=player,
                kind=StepKind.JACKPOT_AWARD,
                key=f"{tournament.tournament_id}:jackpot:{programme_id}:{player}:{reference}",
                request=wallet_requests.jackpot_award(concessionaire, player, tournament.currency, amount),
                now=director.now(),
            )
            awarded = events.JackpotAwarded(
                tournament_id=tournament.tournament_id,
                programme_id=programme_id,
                player_id=player,
                concessionaire_id=concessionaire,
                currency=tournament.currency,
                amount_cents=amount,
            )
            await director.runtime.outbox.add(session, awarded)
            director.wake_money_worker_after_commit(session)


async def streak_awards(
    director: Director, session: AsyncSession, tournament: TournamentRecord, outcome: TournamentOutcome
) -> None:
    """Move the entrants' win streaks by this finish and pay whoever completed one (P-8.6)."""
    fact = outcome.jackpot_fact
    for programme in tournament.jackpots:
        if not isinstance(programme.condition, WinStreakCondition):
            continue
        current = await jackpot_store.streaks(session, programme.programme_id, fact.entrants)
        result = streak_qualifiers(programme, fact, current)
        await jackpot_store.put_streaks(session, programme.programme_id, result.streaks)
        for player in result.qualifiers:
            qualified = events.JackpotQualified(
                tournament_id=tournament.tournament_id,
                programme_id=programme.programme_id,
                player_id=player,
                hand_id=None,
            )
            await director.runtime.outbox.add(session, qualified)
        if result.qualifiers:
            await award(director, session, tournament, programme.programme_id, result.qualifiers, reference="streak")
