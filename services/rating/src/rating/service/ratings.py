"""Reading ratings: the public leaderboard (P-11.5) and one player's rating on any day with its history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from itertools import groupby

from rating.adapters.players import nicknames_of
from rating.adapters.ratings import RecordedAward, all_summaries, history_of
from rating.adapters.tiers import Standing, latest_tier_day, rank_of, standings_between, tier_in_force
from rating.domain import Leaderboard, RatingSummary, Tier, apply_award, is_active, rating_on
from rating.service.context import Context


@dataclass(frozen=True, slots=True)
class StandingsPage:
    day: date | None  # the last closed day (live: today); None before the tier job first ran
    page: int
    size: int
    active_count: int
    standings: list[Standing]
    #: True: the standing as of now (today's ratings, tiers by rank now, provisional until the day closes).
    live: bool = False
    #: When the tier job next closes a day and recomputes the tiers in force: midnight in the reference zone.
    tiers_recomputed_at: datetime | None = None
    #: The day the tiers in force come from (None before the first closed day).
    tiers_of_day: date | None = None


def next_tier_run(context: Context) -> datetime:
    """The moment the day in progress closes (the tier job closes it then, P-11.3)."""
    return datetime.combine(context.today() + timedelta(days=1), time(0), tzinfo=context.zone)


async def live_leaderboard_page(context: Context, page: int, size: int) -> StandingsPage:
    """The standing as of now (issue 15, item 10): every active player on today's rating, ranked, with the tier
    that rank would give; the tiers in force change only when the day closes (`tiers_recomputed_at`)."""
    today = context.today()
    async with context.units.unit() as uow:
        board = Leaderboard.build(await all_summaries(uow.session), today, depth=page * size)
        entries = board.page(page, size).entries
        names = await nicknames_of(uow.session, [entry.player_id for entry in entries])
        latest = await latest_tier_day(uow.session)
    standings = [Standing(e.rank, names.get(e.player_id), e.rating, e.tier) for e in entries]
    return StandingsPage(
        today,
        page,
        size,
        board.active_count,
        standings,
        live=True,
        tiers_recomputed_at=next_tier_run(context),
        tiers_of_day=None if latest is None else latest.day,
    )


async def leaderboard_page(context: Context, page: int, size: int) -> StandingsPage:
    """The standings of the last closed day, the same day the tiers in force come from."""
    async with context.units.unit() as uow:
        latest = await latest_tier_day(uow.session)
        if latest is None:
            return StandingsPage(None, page, size, 0, [], tiers_recomputed_at=next_tier_run(context))
        first = (page - 1) * size + 1
        standings = await standings_between(uow.session, latest.day, first, first + size - 1)
    return StandingsPage(
        latest.day,
        page,
        size,
        latest.active_count,
        standings,
        tiers_recomputed_at=next_tier_run(context),
        tiers_of_day=latest.day,
    )


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """One award, and the rating at the end of its day (other awards of that day included)."""

    recorded: RecordedAward
    rating_at_end_of_day: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player_id: str
    day: date
    rating: int  # micro-points on `day`, its awards included (P-11.2)
    active: bool  # a tournament in the 360 days ending with `day` (P-11.3)
    tier: Tier  # the tier in force, from the last closed day
    tier_since: date | None
    rank: int | None  # in the standings of the last closed day, if ranked there
    history: list[HistoryStep]  # the awards up to `day`, oldest first


async def player_rating(context: Context, player_id: str, day: date | None) -> PlayerRating:
    """The rating on `day` (default: today) is a query over the award history: nothing decays in the database."""
    day = day or context.today()
    async with context.units.unit() as uow:
        recorded = [r for r in await history_of(uow.session, player_id) if r.award.day <= day]
        tier, since = await tier_in_force(uow.session, player_id)
        latest = await latest_tier_day(uow.session)
        rank = None if latest is None else await rank_of(uow.session, latest.day, player_id)
    summary = RatingSummary(player_id)
    history: list[HistoryStep] = []
    for _, same_day in groupby(recorded, key=lambda r: r.award.day):
        awards_of_day = list(same_day)
        for r in awards_of_day:
            summary = apply_award(summary, r.award)
        history += [HistoryStep(r, summary.value) for r in awards_of_day]
    return PlayerRating(
        player_id=player_id,
        day=day,
        rating=rating_on(summary, day),
        active=is_active(summary.last_day, day),
        tier=tier,
        tier_since=since,
        rank=rank,
        history=history,
    )
