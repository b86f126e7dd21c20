"""Reports and sanctions (with their appeal) as rows, and back as domain objects."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from platform_kit.sql import chunks, is_postgres
from sqlalchemy import Row, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.orm import reports, sanction_reports, sanctions
from rating.domain import (
    Appeal,
    AppealOutcome,
    BanScope,
    Detection,
    Gravity,
    OffenceKind,
    Report,
    Sanction,
    SanctionContext,
    SanctionKind,
    SanctionRecord,
)


class ReportStatus(StrEnum):
    OPEN = "open"  # waiting for a staff decision
    SANCTIONED = "sanctioned"  # answered by at least one sanction
    DISMISSED = "dismissed"  # the staff found no offence


class LiftReason(StrEnum):
    """Why a sanction stopped; the values of the `rating.sanction.lifted` contract."""

    EXPIRED = "expired"
    OVERTURNED_ON_APPEAL = "overturned_on_appeal"


@dataclass(frozen=True, slots=True)
class StoredReport:
    report: Report
    concessionaire_id: str  # the offender's
    status: ReportStatus
    closed_by: str | None = None
    closed_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class StoredSanction:
    record: SanctionRecord
    prior_sanctions: int  # the repetitions of the offence the staff saw when deciding (P-12.2)
    lifted_at: datetime | None = None
    lifted_reason: LiftReason | None = None


# -- reports ----------------------------------------------------------------------------------------------------
async def insert_report(session: AsyncSession, stored: StoredReport) -> None:
    r = stored.report
    await session.execute(
        reports.insert().values(
            report_id=r.report_id,
            offender_id=r.offender_id,
            concessionaire_id=stored.concessionaire_id,
            offence=r.offence.value,
            detection=r.detection.value,
            reporter_id=r.reporter_id,
            tournament_id=r.tournament_id,
            description=r.description,
            filed_at=r.filed_at,
            status=stored.status.value,
        )
    )


async def reports_by_id(session: AsyncSession, report_ids: Iterable[str]) -> dict[str, StoredReport]:
    rows = await session.execute(select(reports).where(reports.c.report_id.in_(sorted(set(report_ids)))))
    return {row.report_id: _stored_report(row) for row in rows}


async def find_reports(
    session: AsyncSession,
    *,
    status: ReportStatus | None,
    offender_id: str | None,
    concessionaire_id: str | None,
    limit: int,
) -> list[StoredReport]:
    """Reports oldest first, optionally of one status, one offender, one concessionaire's players."""
    query = select(reports).order_by(reports.c.filed_at, reports.c.report_id).limit(limit)
    if status is not None:
        query = query.where(reports.c.status == status.value)
    if offender_id is not None:
        query = query.where(reports.c.offender_id == offender_id)
    if concessionaire_id is not None:
        query = query.where(reports.c.concessionaire_id == concessionaire_id)
    return [_stored_report(row) for row in await session.execute(query)]


async def reports_about(session: AsyncSession, player_id: str) -> list[Report]:
    rows = await session.execute(select(reports).where(reports.c.offender_id == player_id))
    return [_stored_report(row).report for row in rows]


async def close_reports(
    session: AsyncSession, report_ids: Sequence[str], status: ReportStatus, by: str, at: datetime
) -> None:
    await session.execute(
        update(reports)
        .where(reports.c.report_id.in_(report_ids))
        .values(status=status.value, closed_by=by, closed_at=at)
    )


def _stored_report(row: Row[Any]) -> StoredReport:
    report = Report(
        report_id=row.report_id,
        offender_id=row.offender_id,
        offence=OffenceKind(row.offence),
        detection=Detection(row.detection),
        filed_at=row.filed_at,
        reporter_id=row.reporter_id,
        tournament_id=row.tournament_id,
        description=row.description,
    )
    return StoredReport(report, row.concessionaire_id, ReportStatus(row.status), row.closed_by, row.closed_at)


# -- sanctions --------------------------------------------------------------------------------------------------
async def insert_sanction(session: AsyncSession, stored: StoredSanction) -> None:
    s = stored.record.sanction
    await session.execute(
        sanctions.insert().values(
            sanction_id=s.sanction_id,
            player_id=s.player_id,
            kind=s.kind.value,
            context=s.context.value,
            offence=s.offence.value,
            gravity=int(s.gravity),
            prior_sanctions=stored.prior_sanctions,
            decided_at=s.decided_at,
            decided_by=s.decided_by,
            room_id=s.room_id,
            tournament_id=s.tournament_id,
            duration_seconds=None if s.duration is None else int(s.duration.total_seconds()),
            ends_at=s.ends_at,
            ban_scope=None if s.ban_scope is None else s.ban_scope.value,
            ranking_penalty_positions=s.ranking_penalty_positions,
            entries_forfeit=s.entries_forfeit,
            reason=s.reason,
        )
    )
    await session.execute(
        sanction_reports.insert(), [{"sanction_id": s.sanction_id, "report_id": r} for r in s.report_ids]
    )


async def find_sanction(session: AsyncSession, sanction_id: str, *, for_update: bool = False) -> StoredSanction | None:
    query = select(sanctions).where(sanctions.c.sanction_id == sanction_id)
    if for_update and is_postgres(session):
        query = query.with_for_update()
    found = await _stored_sanctions(session, list(await session.execute(query)))
    return found[0] if found else None


async def sanctions_of(session: AsyncSession, player_id: str) -> list[StoredSanction]:
    """The player's whole trail, oldest first."""
    query = select(sanctions).where(sanctions.c.player_id == player_id).order_by(sanctions.c.decided_at)
    return await _stored_sanctions(session, list(await session.execute(query)))


async def due_for_expiry(session: AsyncSession, now: datetime, limit: int) -> list[StoredSanction]:
    """Temporary sanctions whose end has come and that are not lifted yet; each replica takes its own rows."""
    query = (
        select(sanctions)
        .where(sanctions.c.lifted_at.is_(None), sanctions.c.ends_at <= now)
        .order_by(sanctions.c.ends_at)
        .limit(limit)
    )
    if is_postgres(session):
        query = query.with_for_update(skip_locked=True)
    return await _stored_sanctions(session, list(await session.execute(query)))


async def save_appeal(session: AsyncSession, record: SanctionRecord) -> None:
    appeal = record.appeal
    assert appeal is not None, "only a record with an appeal has one to save"
    await session.execute(
        update(sanctions)
        .where(sanctions.c.sanction_id == record.sanction.sanction_id)
        .values(
            appeal_filed_at=appeal.filed_at,
            appeal_grounds=appeal.grounds,
            appeal_outcome=None if appeal.outcome is None else appeal.outcome.value,
            appeal_decided_at=appeal.decided_at,
            appeal_decided_by=appeal.decided_by,
        )
    )


async def mark_lifted(session: AsyncSession, sanction_ids: Sequence[str], reason: LiftReason, at: datetime) -> None:
    for chunk in chunks(sanction_ids):
        await session.execute(
            update(sanctions).where(sanctions.c.sanction_id.in_(chunk)).values(lifted_at=at, lifted_reason=reason.value)
        )


async def _stored_sanctions(session: AsyncSession, rows: list[Row[Any]]) -> list[StoredSanction]:
    report_ids: dict[str, list[str]] = defaultdict(list)
    for chunk in chunks([row.sanction_id for row in rows]):
        links = await session.execute(
            select(sanction_reports.c.sanction_id, sanction_reports.c.report_id)
            .where(sanction_reports.c.sanction_id.in_(chunk))
            .order_by(sanction_reports.c.report_id)
        )
        for sanction_id, report_id in links:
            report_ids[sanction_id].append(report_id)
    return [_stored_sanction(row, tuple(report_ids[row.sanction_id])) for row in rows]


def _stored_sanction(row: Row[Any], report_ids: tuple[str, ...]) -> StoredSanction:
    sanction = Sanction(
        sanction_id=row.sanction_id,
        player_id=row.player_id,
        kind=SanctionKind(row.kind),
        context=SanctionContext(row.context),
        offence=OffenceKind(row.offence),
        gravity=Gravity(row.gravity),
        decided_at=row.decided_at,
        decided_by=row.decided_by,
        report_ids=report_ids,
        room_id=row.room_id,
        tournament_id=row.tournament_id,
        duration=None if row.duration_seconds is None else timedelta(seconds=row.duration_seconds),
        ban_scope=None if row.ban_scope is None else BanScope(row.ban_scope),
        ranking_penalty_positions=row.ranking_penalty_positions,
        entries_forfeit=row.entries_forfeit,
        reason=row.reason,
    )
    appeal = None
    if row.appeal_filed_at is not None:
        appeal = Appeal(
            filed_at=row.appeal_filed_at,
            grounds=row.appeal_grounds,
            outcome=None if row.appeal_outcome is None else AppealOutcome(row.appeal_outcome),
            decided_at=row.appeal_decided_at,
            decided_by=row.appeal_decided_by,
        )
    lifted_reason = None if row.lifted_reason is None else LiftReason(row.lifted_reason)
    return StoredSanction(SanctionRecord(sanction, appeal), row.prior_sanctions, row.lifted_at, lifted_reason)
