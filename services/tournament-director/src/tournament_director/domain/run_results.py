"""The money a run decides: prizes when it finishes (P-8.2–P-8.5, P-2.4), refunds when it is cancelled (P-10),
lost-showdown jackpot qualifiers after each hand (P-8.6).

Pure functions of the run's state and elimination log; `TournamentRun` calls them. The prize pool is the prize
parts of every entry (buy-ins, sponsored entries, rebuys, add-ons), topped up to the guarantee (P-8.3); the
rating's "prize pool from entries" is the collected part alone (P-11.1, P-11.8). A disqualified player keeps
the prize of the position they rank at (P-12.5 says nothing of forfeiting it), which matters only when fewer
players than prizes were not disqualified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from platform_kit.events.table import HandCompleted
from platform_kit.events.tournament import JackpotQualified, RankedPlayer, Refund, TournamentFinished

from tournament_director.domain import jackpots
from tournament_director.domain.blind_clock import ClockReading
from tournament_director.domain.cancellation import CancellationCase, CancellationSettlement
from tournament_director.domain.entries import Entry, PaymentForm
from tournament_director.domain.money import BASIS_POINTS_PER_WHOLE, split_equally
from tournament_director.domain.payouts import PayoutSchedule, PrizeTable, payout_amounts, schedule_from_amounts
from tournament_director.domain.prize_pool import PoolFunding, fund_prize_pool
from tournament_director.domain.ranking import EliminationLog, FinalRanking, PlayerId
from tournament_director.domain.rebuy_addon import rebuys_or_addons_still_possible
from tournament_director.domain.run_state import RunState
from tournament_director.domain.tax import tax_base_cents


def all_entries(state: RunState) -> list[Entry]:
    return [entry for entries in state.entries.values() for entry in entries]


def pool_funding(state: RunState) -> PoolFunding:
    """P-8.2, P-8.3: the prize pool as it stands (it grows with rebuys and add-ons)."""
    return fund_prize_pool(all_entries(state), state.definition.guarantee_cents)


def schedule_of(state: RunState) -> PayoutSchedule:
    """The schedule shown at registration for this field (P-8.4): it depends on the entrants, not the entries.
    A satellite's is its seats (and cash remainder) as shares of the pool as it stands (P-3.4)."""
    if state.definition.satellite is not None:
        return schedule_from_amounts(prize_table(state).amounts)
    return state.definition.payout_schedule(len(state.entries))


def prize_table(state: RunState) -> PrizeTable:
    """What each position wins with the pool as it stands: cash by the schedule (P-8.4, P-8.5) — less a
    shoot-out's part for its table winners (P-2.5) — or in a satellite seats in its target and the cash
    remainder (P-3.4)."""
    pool = pool_funding(state).pool_cents
    satellite = state.definition.satellite
    if satellite is not None:
        return PrizeTable.of_satellite(pool, satellite.seat_price.total_cents)
    return PrizeTable(payout_amounts(pool - table_winners_part(pool, state), schedule_of(state)))


def table_winners_part(pool_cents: int, state: RunState) -> int:
    """P-2.5: the part of the pool a shoot-out shares among its table winners (floored: the cents left over
    stay with the positions)."""
    return pool_cents * state.definition.payouts.table_winners_bps // BASIS_POINTS_PER_WHOLE


def table_winner_prizes(state: RunState, ranking: FinalRanking, pool_cents: int) -> dict[PlayerId, int]:
    """P-2.5: each first-phase table winner's equal part, the odd cents to the best ranked first (P-8.5). With a
    single first-phase table, its winner is the tournament's."""
    part = table_winners_part(pool_cents, state)
    if not part:
        return {}
    winners = set(state.table_winners or ranking.groups[0].players)
    ordered = [player for player in ranking.players if player in winners]
    return dict(zip(ordered, split_equally(part, len(ordered)), strict=True))


@dataclass(frozen=True)
class TournamentOutcome:
    """Everything a finished tournament settles."""

    ranking: FinalRanking
    #: Every entrant's cash prize in cents (0 outside the paid places), ties shared (P-2.4, P-8.5).
    prizes: Mapping[PlayerId, int]
    #: Satellite: the players who won a seat in its target, best first (P-3.4).
    seat_winners: tuple[PlayerId, ...]
    #: Prize by position, 1st first (P-8.5).
    amounts: tuple[int, ...]
    funding: PoolFunding
    #: P-8.7: the full price of every entry; the service applies the configured rate.
    tax_base_cents: int
    disqualified: frozenset[PlayerId]
    #: What the win-streak jackpots need (P-8.6): pass it to `jackpots.streak_qualifiers` with the streaks.
    jackpot_fact: jackpots.FinishedTournament
    #: The bus event (`tournament.tournament.finished`).
    event: TournamentFinished

    @property
    def winner(self) -> PlayerId:
        return self.ranking.groups[0].players[0]


def finish(state: RunState, log: EliminationLog, finished_at: datetime) -> TournamentOutcome:
    """The final ranking and the prizes of a tournament whose last opponent just went out."""
    satellite = state.definition.satellite is not None
    ranking = log.final_ranking(survivors_share_first=satellite)
    funding = pool_funding(state)
    table = prize_table(state)
    prizes = table.cash_by_player(ranking.groups)
    for player, prize in table_winner_prizes(state, ranking, funding.pool_cents).items():
        prizes[player] += prize
    seat_winners = table.seat_winners(ranking.groups)
    disqualified = frozenset(entry.player_id for entry in state.log if entry.operation == "disqualify")
    entrants = tuple(state.entries)
    event = TournamentFinished(
        tournament_id=state.tournament_id,
        kind=state.definition.kind,
        currency=state.currency,
        finished_at=finished_at.isoformat(),
        entrants=len(entrants),
        prize_pool_cents=funding.pool_cents,
        prize_pool_from_entries_cents=funding.collected_cents,
        guarantee_overlay_cents=funding.overlay_cents,
        ranking=[
            RankedPlayer(
                player_id=player,
                position=group.first_position,
                prize_cents=prizes[player],
                disqualified=player in disqualified,
                seat=player in seat_winners,
            )
            for group in ranking.groups
            for player in group.players
        ],
    )
    return TournamentOutcome(
        ranking=ranking,
        prizes=prizes,
        seat_winners=seat_winners,
        amounts=table.amounts,
        funding=funding,
        tax_base_cents=tax_base_cents(all_entries(state)),
        disqualified=disqualified,
        jackpot_fact=jackpots.FinishedTournament(state.tournament_id, ranking.groups[0].players[0], entrants),
        event=event,
    )


def cancellation_case(
    state: RunState, log: EliminationLog, clock: ClockReading, chips: Mapping[PlayerId, int]
) -> CancellationCase:
    """P-10's input as of the last completed hand: `chips` are the players still in, with what they held then."""
    definition = state.definition
    return CancellationCase(
        kind=definition.kind,
        guarantee_cents=definition.guarantee_cents,
        freeroll=definition.freeroll is not None,
        rebuys_or_addons_open=rebuys_or_addons_still_possible(definition, clock),
        schedule=schedule_of(state),
        entries={player: tuple(entries) for player, entries in state.entries.items()},
        eliminated=log.standing_of_eliminated(),
        chips=dict(chips),
    )


def showdown_jackpot_qualifiers(state: RunState, fact: HandCompleted) -> list[JackpotQualified]:
    """P-8.6: who meets a lost-showdown programme in this hand (a shown hand that won no chip from any pot)."""
    if not fact.shown or not state.jackpots:
        return []
    won: dict[int, int] = {}
    for pot in fact.pots:
        for seat, chips in zip(pot.winner_seats, pot.shares, strict=True):
            won[seat] = won.get(seat, 0) + chips
    showdown = jackpots.Showdown(
        state.tournament_id,
        fact.hand_id,
        tuple(
            jackpots.ShowdownHand(shown.player_id, jackpots.hand_category(shown.category), won.get(shown.seat, 0))
            for shown in fact.shown
        ),
    )
    return [
        JackpotQualified(
            tournament_id=state.tournament_id,
            programme_id=programme.programme_id,
            player_id=player,
            hand_id=fact.hand_id,
        )
        for programme in state.jackpots
        for player in jackpots.showdown_qualifiers(programme, showdown)
    ]


def refunds(settlement: CancellationSettlement, players: Sequence[PlayerId]) -> list[Refund]:
    """Per player, the cash and the fresh tickets a cancellation gives back (players with nothing left out)."""
    by_player = []
    for player in players:
        lines = settlement.lines_for(player)
        cash = sum(line.amount_cents for line in lines if line.form is PaymentForm.CASH)
        tickets = sum(1 for line in lines if line.form is PaymentForm.TICKET)
        if cash or tickets:
            by_player.append(Refund(player_id=player, cash_cents=cash, tickets=tickets))
    return by_player
