"""Ratings from finished tournaments (P-11.1, P-11.2, P-11.8), each applied exactly once.

Twice over: the kit's inbox drops a redelivered message, and the awards table's (player, tournament) key
drops the same result published again under another message id (a director retry). A different result for
a tournament already rated is refused (`ConflictingAward`): the message is retried, then dead-lettered for
a human to look at, since silently keeping either version would be wrong.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime

from platform_kit.bus import Envelope
from platform_kit.events.rating import RatingUpdated
from platform_kit.events.tournament import TournamentFinished
from platform_kit.inbox import SessionHandler
from platform_kit.instants import as_utc
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.ratings import (
    RecordedAward,
    awards_of_players,
    awards_of_tournament,
    insert_awards,
    save_summaries,
    summaries_of,
)
from rating.domain import (
    Award,
    AwardOutOfOrder,
    ConflictingAward,
    Finish,
    RatingSummary,
    TournamentResult,
    apply_award,
    award_day,
    awards_for,
    is_new_award,
    summarize,
)
from rating.service.context import Context

log = logging.getLogger(__name__)


def result_of(event: TournamentFinished, context: Context) -> TournamentResult:
    """The director's ranking as the rating needs it. Players tied over k positions (P-2.4) are reported at
    their group's best position, so k players at one position form one tie group. The pool is the part
    from entries, rebuys and add-ons included, guarantee overlay excluded (P-11.1, P-11.8)."""
    finished_at = as_utc(datetime.fromisoformat(event.finished_at))
    tied = Counter(ranked.position for ranked in event.ranking)
    return TournamentResult(
        tournament_id=event.tournament_id,
        day=award_day(finished_at, context.zone),
        entries_cents=event.prize_pool_from_entries_cents,
        finishes=tuple(Finish(r.player_id, r.position, tied[r.position]) for r in event.ranking),
    )


async def record_result(session: AsyncSession, context: Context, result: TournamentResult) -> list[Award]:
    """Record the result's awards not recorded yet and fold them into the players' ratings; returns them."""
    finishes = {f.player_id: f for f in result.finishes}
    recorded = await awards_of_tournament(session, result.tournament_id)
    if recorded and recorded.keys() != finishes.keys():
        raise ConflictingAward(f"tournament {result.tournament_id} was already rated with other players")
    new = [a for a in awards_for(result) if is_new_award(recorded.get(a.player_id), a)]
    if not new:
        return []
    await insert_awards(
        session,
        [
            RecordedAward(
                a, finishes[a.player_id].position, finishes[a.player_id].tied_positions, result.rating_pool_cents
            )
            for a in new
        ],
        context.now(),
    )
    summaries = await summaries_of(session, (a.player_id for a in new))
    updated: list[RatingSummary] = []
    late: list[str] = []
    for award in new:
        try:
            updated.append(apply_award(summaries.get(award.player_id, RatingSummary(award.player_id)), award))
        except AwardOutOfOrder:
            late.append(award.player_id)  # a result older than one already counted: refold the history
    histories = await awards_of_players(session, late)
    updated += [summarize(player_id, histories[player_id]) for player_id in late]
    await save_summaries(session, updated)
    for award in new:
        await context.outbox.add(
            session,
            RatingUpdated(
                player_id=award.player_id,
                tournament_id=award.tournament_id,
                points_micro=award.points,
                as_of_day=award.day.isoformat(),
            ),
        )
    return new


def tournament_finished_handler(context: Context) -> SessionHandler:
    async def on_tournament_finished(session: AsyncSession, envelope: Envelope) -> None:
        event = envelope.event()
        assert isinstance(event, TournamentFinished)
        new = await record_result(session, context, result_of(event, context))
        log.info("tournament rated", extra={"tournament_id": event.tournament_id, "new_awards": len(new)})

    return on_tournament_finished
