"""Staff decisions (P-12.2 - P-12.4), appeals, and the expiry of temporary sanctions — each announced on the
bus for the services that enforce them: the gateway (bans), the director (disqualifications, ranking
penalties, cancelled registrations) and the table engine (chat bans).

`rating.sanction.decided` is published when a sanction is imposed; `rating.sanction.lifted` when a temporary
one reaches its end (reason `expired`, by the background sweep, `jobs.lift_expired`) or any one is overturned on appeal.
"""

from __future__ import annotations

import uuid

from platform_kit.errors import Conflict, NotFound
from platform_kit.events.rating import SanctionDecided, SanctionLifted
from platform_kit.unit_of_work import UnitOfWork
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.conduct import (
    LiftReason,
    ReportStatus,
    StoredSanction,
    close_reports,
    due_for_expiry,
    find_sanction,
    insert_sanction,
    mark_lifted,
    reports_about,
    reports_by_id,
    sanctions_of,
    save_appeal,
)
from rating.domain import (
    AppealOutcome,
    Sanction,
    SanctionRecord,
    conduct_history,
    impose,
)
from rating.service.commands import DecideAppeal, DecideSanction, FileAppeal, LiftDueSanctions
from rating.service.context import Context


async def decide(context: Context, uow: UnitOfWork, command: DecideSanction) -> StoredSanction:
    principal, decision = command.principal, command.decision
    principal.require_staff()
    now = context.now()
    found = await reports_by_id(uow.session, decision.report_ids)
    missing = sorted(set(decision.report_ids) - found.keys())
    if missing:
        raise NotFound("rating.report_unknown", "Some reports do not exist.", report_ids=missing)
    for stored in found.values():
        principal.require_manages(stored.concessionaire_id)
        if stored.status is ReportStatus.DISMISSED:
            raise Conflict("rating.report_dismissed", f"Report {stored.report.report_id} was dismissed.")
    reports = [found[report_id].report for report_id in dict.fromkeys(decision.report_ids)]
    sanction = impose(
        reports,
        sanction_id=uuid.uuid4().hex,
        kind=decision.kind,
        context=decision.context,
        offence=decision.offence,
        gravity=decision.gravity,
        decided_at=now,
        decided_by=principal.subject_id,
        # A player comes through their own concessionaire's room: where a room ban applies.
        room_id=found[reports[0].report_id].concessionaire_id,
        tournament_id=decision.tournament_id,
        duration=decision.duration,
        ban_scope=decision.ban_scope,
        ranking_penalty_positions=decision.ranking_penalty_positions,
        entries_forfeit=decision.entries_forfeit,
        reason=decision.reason,
    )
    history = conduct_history(
        sanction.player_id,
        await reports_about(uow.session, sanction.player_id),
        [s.record for s in await sanctions_of(uow.session, sanction.player_id)],
        now,
    )
    stored_sanction = StoredSanction(SanctionRecord(sanction), history.repetitions(sanction.offence))
    await insert_sanction(uow.session, stored_sanction)
    still_open = [r.report_id for r in reports if found[r.report_id].status is ReportStatus.OPEN]
    await close_reports(uow.session, still_open, ReportStatus.SANCTIONED, principal.subject_id, now)
    await uow.publish(decided_event(sanction))
    return stored_sanction


def decided_event(sanction: Sanction) -> SanctionDecided:
    scope = sanction.scope
    return SanctionDecided(
        sanction_id=sanction.sanction_id,
        player_id=sanction.player_id,
        kind=sanction.kind.value,
        tournament_id=sanction.tournament_id,
        ban_scope=None if scope is None else scope.value,
        room_id=sanction.room_id,
        starts_at=sanction.decided_at.isoformat(),
        ends_at=None if sanction.ends_at is None else sanction.ends_at.isoformat(),
        ranking_penalty_positions=sanction.ranking_penalty_positions,
        forfeit_entries=sanction.entries_forfeit,
        reason=sanction.reason,
    )


async def file_appeal(context: Context, uow: UnitOfWork, command: FileAppeal) -> StoredSanction:
    """The sanctioned player appeals (or staff record it for them); the sanction stays in force meanwhile."""
    stored = await _sanction(uow.session, command.sanction_id)
    sanction = stored.record.sanction
    if not command.principal.may_see(sanction.player_id, sanction.room_id):
        raise NotFound("rating.sanction_unknown", f"No sanction {command.sanction_id}.")
    record = stored.record.file_appeal(context.now(), command.grounds)
    await save_appeal(uow.session, record)
    return StoredSanction(record, stored.prior_sanctions, stored.lifted_at, stored.lifted_reason)


async def decide_appeal(context: Context, uow: UnitOfWork, command: DecideAppeal) -> StoredSanction:
    """Staff decide an open appeal; an overturned sanction stops at once and is announced as lifted."""
    now = context.now()
    stored = await _sanction(uow.session, command.sanction_id)
    command.principal.require_manages(stored.record.sanction.room_id)
    record = stored.record.decide_appeal(command.outcome, now, command.principal.subject_id)
    await save_appeal(uow.session, record)
    if command.outcome is AppealOutcome.SANCTION_UPHELD:
        return StoredSanction(record, stored.prior_sanctions, stored.lifted_at, stored.lifted_reason)
    await mark_lifted(uow.session, [command.sanction_id], LiftReason.OVERTURNED_ON_APPEAL, now)
    await uow.publish(lifted_event(record.sanction, LiftReason.OVERTURNED_ON_APPEAL))
    return StoredSanction(record, stored.prior_sanctions, now, LiftReason.OVERTURNED_ON_APPEAL)


async def _sanction(session: AsyncSession, sanction_id: str) -> StoredSanction:
    stored = await find_sanction(session, sanction_id, for_update=True)
    if stored is None:
        raise NotFound("rating.sanction_unknown", f"No sanction {sanction_id}.")
    return stored


def lifted_event(sanction: Sanction, reason: LiftReason) -> SanctionLifted:
    return SanctionLifted(
        sanction_id=sanction.sanction_id, player_id=sanction.player_id, kind=sanction.kind.value, reason=reason.value
    )


async def lift_due(context: Context, uow: UnitOfWork, command: LiftDueSanctions) -> int:
    """One batch of the sweep (`jobs.lift_expired`): lift and announce the sanctions whose end has come."""
    now = context.now()
    due = await due_for_expiry(uow.session, now, command.limit)
    await mark_lifted(uow.session, [s.record.sanction.sanction_id for s in due], LiftReason.EXPIRED, now)
    for stored in due:
        await uow.publish(lifted_event(stored.record.sanction, LiftReason.EXPIRED))
    return len(due)
