"""Draws in the database: rows to the domain's Draw and back, row locks, and the operators' decisions.

Locks: bet intake holds the draw row FOR SHARE while it checks the draw is open and inserts the coupon;
closing, cancelling, settling and every change to the matches hold it FOR UPDATE. So a coupon is either
committed before the draw closes or sees it closed (PostgreSQL; SQLite serialises all writers anyway).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from fractions import Fraction
from typing import Any

from platform_kit.errors import NotFound
from sqlalchemy import Row, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from totalizator.adapters.orm import decisions, draw_currencies, draw_matches, draws
from totalizator.domain import CurrencyTerms, Draw, DrawStatus, Match
from totalizator.files.decimals import exact_decimal, parse_decimal


class Lock(Enum):
    NONE = "none"
    SHARE = "share"  # bet intake: many at once, but not while the draw changes
    UPDATE = "update"  # any change of the draw's state or matches


@dataclass(frozen=True, slots=True)
class DrawRecord:
    draw_id: str
    status: DrawStatus
    close_at: datetime
    jackpot_carried_usd: Fraction
    jackpot_topup_usd: Fraction
    version: int
    created_at: datetime
    announced_at: datetime | None
    closed_at: datetime | None
    final_at: datetime | None
    final_coupons: int | None
    final_bets: int | None
    final_pool_usd: Fraction | None
    cancel_reason: str | None
    settlement_report: str | None
    next_jackpot_usd: Fraction | None
    finished_at: datetime | None

    @property
    def jackpot_usd(self) -> Fraction:
        return self.jackpot_carried_usd + self.jackpot_topup_usd

    @property
    def is_final(self) -> bool:
        """Bets are closed and every accepted coupon is paid for: the count and pool are final (T-2.6)."""
        return self.final_at is not None

    @classmethod
    def of(cls, row: Row[Any]) -> DrawRecord:
        return cls(
            draw_id=row.draw_id,
            status=DrawStatus(row.status),
            close_at=row.close_at,
            jackpot_carried_usd=parse_decimal(row.jackpot_carried_usd),
            jackpot_topup_usd=parse_decimal(row.jackpot_topup_usd),
            version=row.version,
            created_at=row.created_at,
            announced_at=row.announced_at,
            closed_at=row.closed_at,
            final_at=row.final_at,
            final_coupons=row.final_coupons,
            final_bets=row.final_bets,
            final_pool_usd=None if row.final_pool_usd is None else parse_decimal(row.final_pool_usd),
            cancel_reason=row.cancel_reason,
            settlement_report=row.settlement_report,
            next_jackpot_usd=None if row.next_jackpot_usd is None else parse_decimal(row.next_jackpot_usd),
            finished_at=row.finished_at,
        )


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match as stored: what the domain's Match holds plus the competition, both kick-offs and the score."""

    no: int
    competition: str | None
    home: str
    away: str
    kickoff: datetime  # scheduled
    actual_kickoff: datetime | None
    options: tuple[str, ...]
    score: tuple[int, int] | None
    result: str | None
    declared_void: bool

    def to_domain(self) -> Match:
        return Match(
            no=self.no,
            home=self.home,
            away=self.away,
            kickoff=self.actual_kickoff or self.kickoff,
            options=self.options,
            result=self.result,
            declared_void=self.declared_void,
        )

    @classmethod
    def of(cls, row: Row[Any]) -> MatchRecord:
        score = None if row.score_home is None else (row.score_home, row.score_away)
        return cls(
            no=row.no,
            competition=row.competition,
            home=row.home,
            away=row.away,
            kickoff=row.kickoff,
            actual_kickoff=row.actual_kickoff,
            options=tuple(json.loads(row.options)),
            score=score,
            result=row.result,
            declared_void=row.declared_void,
        )


def usd_text(amount: Fraction) -> str:
    """US dollars as stored and published: the exact decimal, at least to the cent."""
    return exact_decimal(amount, min_places=2)


async def get(session: AsyncSession, draw_id: str, *, lock: Lock = Lock.NONE) -> DrawRecord:
    query = select(draws).where(draws.c.draw_id == draw_id)
    if lock is not Lock.NONE:
        query = query.with_for_update(read=lock is Lock.SHARE)
    row = (await session.execute(query)).one_or_none()
    if row is None:
        raise NotFound("draw_not_found", f"There is no draw {draw_id!r}.", draw_id=draw_id)
    return DrawRecord.of(row)


async def listed(session: AsyncSession, statuses: Iterable[DrawStatus], *, limit: int = 100) -> list[DrawRecord]:
    """Draws in these states, the latest closing first."""
    query = (
        select(draws)
        .where(draws.c.status.in_([str(s) for s in statuses]))
        .order_by(draws.c.close_at.desc(), draws.c.draw_id)
        .limit(limit)
    )
    return [DrawRecord.of(row) for row in (await session.execute(query)).all()]


async def ids(
    session: AsyncSession, statuses: Iterable[DrawStatus], *, closing_by: datetime | None = None
) -> list[str]:
    query = select(draws.c.draw_id).where(draws.c.status.in_([str(s) for s in statuses]))
    if closing_by is not None:
        query = query.where(draws.c.close_at <= closing_by)
    return list((await session.scalars(query.order_by(draws.c.close_at))).all())


async def exists(session: AsyncSession, draw_id: str) -> bool:
    return (await session.scalar(select(draws.c.draw_id).where(draws.c.draw_id == draw_id))) is not None


async def insert_draft(
    session: AsyncSession, draw: Draw, competitions: Sequence[str | None], *, created_at: datetime
) -> None:
    await session.execute(
        insert(draws).values(
            draw_id=draw.draw_id,
            status=str(DrawStatus.DRAFT),
            close_at=draw.close_at,
            jackpot_carried_usd=usd_text(draw.jackpot_carried_usd),
            jackpot_topup_usd=usd_text(draw.jackpot_topup_usd),
            version=1,
            created_at=created_at,
        )
    )
    await session.execute(
        insert(draw_currencies),
        [
            {
                "draw_id": draw.draw_id,
                "currency": terms.currency,
                "position": position,
                "min_stake": terms.min_stake,
                "usd_rate": exact_decimal(terms.usd_rate),
            }
            for position, terms in enumerate(draw.currencies)
        ],
    )
    await session.execute(
        insert(draw_matches),
        [
            {
                "draw_id": draw.draw_id,
                "no": match.no,
                "competition": competition,
                "home": match.home,
                "away": match.away,
                "kickoff": match.kickoff,
                "options": json.dumps(list(match.options), ensure_ascii=False),
                "declared_void": False,
            }
            for match, competition in zip(draw.matches, competitions, strict=True)
        ],
    )


async def update_draw(session: AsyncSession, draw_id: str, **values: Any) -> None:
    await session.execute(update(draws).where(draws.c.draw_id == draw_id).values(**values))


def bump() -> dict[str, Any]:
    """The update that marks a change of the domain's Draw (jackpot, matches), so caches reload it."""
    return {"version": draws.c.version + 1}


async def update_match(session: AsyncSession, draw_id: str, no: int, **values: Any) -> None:
    await session.execute(
        update(draw_matches).where(draw_matches.c.draw_id == draw_id, draw_matches.c.no == no).values(**values)
    )
    await update_draw(session, draw_id, **bump())


async def matches(session: AsyncSession, draw_id: str) -> list[MatchRecord]:
    query = select(draw_matches).where(draw_matches.c.draw_id == draw_id).order_by(draw_matches.c.no)
    return [MatchRecord.of(row) for row in (await session.execute(query)).all()]


async def currencies(session: AsyncSession, draw_id: str) -> list[CurrencyTerms]:
    query = select(draw_currencies).where(draw_currencies.c.draw_id == draw_id).order_by(draw_currencies.c.position)
    return [
        CurrencyTerms(row.currency, row.min_stake, parse_decimal(row.usd_rate))
        for row in (await session.execute(query)).all()
    ]


async def load(session: AsyncSession, record: DrawRecord) -> Draw:
    """The domain's Draw of a stored draw: its matches as they stand (actual kick-offs, voids, results)."""
    return Draw(
        draw_id=record.draw_id,
        close_at=record.close_at,
        matches=tuple(match.to_domain() for match in await matches(session, record.draw_id)),
        currencies=tuple(await currencies(session, record.draw_id)),
        jackpot_carried_usd=record.jackpot_carried_usd,
        jackpot_topup_usd=record.jackpot_topup_usd,
    )


class DrawCache:
    """Domain Draws by id and version: bet intake checks every coupon against its draw without reloading the
    draw's 8 matches and currencies each time. Every change to the draw bumps its version (see bump)."""

    def __init__(self) -> None:
        self._draws: dict[str, tuple[int, Draw]] = {}

    async def draw(self, session: AsyncSession, record: DrawRecord) -> Draw:
        cached = self._draws.get(record.draw_id)
        if cached is not None and cached[0] == record.version:
            return cached[1]
        draw = await load(session, record)
        self._draws[record.draw_id] = (record.version, draw)
        return draw


@dataclass(frozen=True, slots=True)
class Decision:
    draw_id: str
    match_no: int | None
    action: str
    detail: dict[str, Any]
    reason: str | None
    role: str
    staff_id: str | None
    decided_at: datetime


async def record_decision(session: AsyncSession, decision: Decision) -> None:
    """T-1.5: every operator decision is kept with its reason, who took it and when."""
    await session.execute(
        insert(decisions).values(
            draw_id=decision.draw_id,
            match_no=decision.match_no,
            action=decision.action,
            detail=json.dumps(decision.detail, ensure_ascii=False, default=str),
            reason=decision.reason,
            role=decision.role,
            staff_id=decision.staff_id,
            decided_at=decision.decided_at,
        )
    )


async def decisions_of(session: AsyncSession, draw_id: str) -> list[Decision]:
    query = select(decisions).where(decisions.c.draw_id == draw_id).order_by(decisions.c.id)
    return [
        Decision(
            draw_id=row.draw_id,
            match_no=row.match_no,
            action=row.action,
            detail=json.loads(row.detail),
            reason=row.reason,
            role=row.role,
            staff_id=row.staff_id,
            decided_at=row.decided_at,
        )
        for row in (await session.execute(query)).all()
    ]
