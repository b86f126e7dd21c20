"""Reports of offences (P-12.1, P-12.2): from players, or from a concessionaire's own checks, until the staff
sanction or dismiss them."""

from __future__ import annotations

import uuid

from platform_kit.errors import Conflict, NotFound
from platform_kit.unit_of_work import UnitOfWork

from rating.adapters.conduct import (
    ReportStatus,
    StoredReport,
    close_reports,
    find_reports,
    insert_report,
    reports_by_id,
)
from rating.domain import Detection, Report
from rating.service.commands import DismissReport, FileReport
from rating.service.context import Context
from rating.service.players import known_player
from rating.service.principals import Principal


async def file_report(context: Context, uow: UnitOfWork, command: FileReport) -> StoredReport:
    """A player's report names them as reporter; staff file their concessionaire's checks on its players."""
    principal = command.principal
    offender = await known_player(uow.session, command.offender_id)
    if principal.is_staff:
        principal.require_manages(offender.concessionaire_id)
        detection, reporter = Detection.OPERATOR_CHECK, None
    else:
        detection, reporter = Detection.PLAYER_REPORT, principal.subject_id
    report = Report(
        report_id=uuid.uuid4().hex,
        offender_id=command.offender_id,
        offence=command.offence,
        detection=detection,
        filed_at=context.now(),
        reporter_id=reporter,
        tournament_id=command.tournament_id,
        description=command.description,
    )
    stored = StoredReport(report, offender.concessionaire_id, ReportStatus.OPEN)
    await insert_report(uow.session, stored)
    return stored


async def list_reports(
    context: Context, principal: Principal, *, status: ReportStatus | None, offender_id: str | None, limit: int
) -> list[StoredReport]:
    """The staff's queue: an operator sees the reports about their concessionaire's players only."""
    principal.require_staff()
    async with context.units.unit() as uow:
        return await find_reports(
            uow.session,
            status=status,
            offender_id=offender_id,
            concessionaire_id=principal.concessionaire_id,
            limit=limit,
        )


async def dismiss_report(context: Context, uow: UnitOfWork, command: DismissReport) -> StoredReport:
    """The staff found no offence: the report is closed without a sanction."""
    now = context.now()
    principal, report_id = command.principal, command.report_id
    stored = (await reports_by_id(uow.session, [report_id])).get(report_id)
    if stored is None:
        raise NotFound("rating.report_unknown", f"No report {report_id}.")
    principal.require_manages(stored.concessionaire_id)
    if stored.status is not ReportStatus.OPEN:
        raise Conflict("rating.report_closed", f"Report {report_id} is already {stored.status}.")
    await close_reports(uow.session, [report_id], ReportStatus.DISMISSED, principal.subject_id, now)
    return StoredReport(stored.report, stored.concessionaire_id, ReportStatus.DISMISSED, principal.subject_id, now)
