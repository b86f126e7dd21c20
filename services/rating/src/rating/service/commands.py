"""What callers ask the rating service to change, and what it answers: one frozen dataclass per use case, run by
`handlers.handle` through the handler table (`handlers.HANDLERS`), as in the tournament director. A command names
who asks (`principal`) when the use case checks it. Reads are not commands: they are the query functions of
`ratings`, `standing`, `eligibility` and `reports.list_reports`.

`Command[R]` says that its handler answers an R. The answers that are not the adapters' records live here too,
beside their commands, so that the use case modules import this one and never each other for a type.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Generic, TypeVar

from rating.adapters.conduct import StoredReport, StoredSanction
from rating.domain import AppealOutcome, BanScope, Gravity, OffenceKind, SanctionContext, SanctionKind
from rating.service.principals import Principal

R = TypeVar("R")


class Command(Generic[R]):
    """A use case's request, answered with an R."""


# -- answers and parts --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TierRun:
    day: date
    active_count: int
    changes: int


@dataclass(frozen=True, slots=True)
class Decision:
    """What the staff decide on one or more reports about a player; the domain refuses what P-12 does not allow."""

    report_ids: tuple[str, ...]
    kind: SanctionKind
    context: SanctionContext
    offence: OffenceKind
    gravity: Gravity
    tournament_id: str | None = None
    duration: timedelta | None = None
    ban_scope: BanScope | None = None
    ranking_penalty_positions: int = 0
    entries_forfeit: bool = False
    reason: str = ""


# -- commands -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileReport(Command[StoredReport]):
    """A player reports an offence (P-12.2), or staff record a check of their concessionaire's."""

    principal: Principal
    offender_id: str
    offence: OffenceKind
    tournament_id: str | None
    description: str


@dataclass(frozen=True)
class DismissReport(Command[StoredReport]):
    principal: Principal
    report_id: str


@dataclass(frozen=True)
class DecideSanction(Command[StoredSanction]):
    principal: Principal
    decision: Decision


@dataclass(frozen=True)
class FileAppeal(Command[StoredSanction]):
    principal: Principal
    sanction_id: str
    grounds: str


@dataclass(frozen=True)
class DecideAppeal(Command[StoredSanction]):
    principal: Principal
    sanction_id: str
    outcome: AppealOutcome


@dataclass(frozen=True)
class CloseDay(Command[TierRun]):
    """Compute and publish the tiers of `day` (P-11.3): by the tier job, or by an operator (`/jobs/tiers`)."""

    day: date


@dataclass(frozen=True)
class LiftDueSanctions(Command[int]):
    """Lift (and announce) up to `limit` temporary sanctions whose end has come; answers how many."""

    limit: int
