"""Shared builders for the conduct and sanctions tests (P-12), and the running service for the service tests."""

import sys
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from rating.domain import (
    BanScope,
    Detection,
    Gravity,
    OffenceKind,
    Report,
    Sanction,
    SanctionContext,
    SanctionKind,
    SanctionRecord,
    impose,
)

T0 = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


def make_report(report_id: str = "r1", offender: str = "bad", **changes: Any) -> Report:
    fields: dict[str, Any] = {
        "report_id": report_id,
        "offender_id": offender,
        "offence": OffenceKind.OFFENSIVE_LANGUAGE,
        "detection": Detection.PLAYER_REPORT,
        "filed_at": T0 - timedelta(minutes=5),
        "reporter_id": "victim",
        "tournament_id": "t-live",
    } | changes
    return Report(**fields)


def make_sanction(kind: SanctionKind = SanctionKind.WRITTEN_WARNING, **changes: Any) -> Sanction:
    """A valid decision of `kind` during tournament t-live at T0, with the fields the kind needs."""
    fields: dict[str, Any] = {
        "sanction_id": f"s-{kind}",
        "kind": kind,
        "context": SanctionContext.DURING_TOURNAMENT,
        "offence": OffenceKind.OFFENSIVE_LANGUAGE,
        "gravity": Gravity.SERIOUS,
        "decided_at": T0,
        "decided_by": "staff-1",
        "room_id": "room-a",
        "tournament_id": "t-live",
    }
    if kind in (SanctionKind.TEMPORARY_CHAT_BAN, SanctionKind.TEMPORARY_BAN):
        fields["duration"] = timedelta(days=1)
    if kind is SanctionKind.TEMPORARY_BAN:
        fields["ban_scope"] = BanScope.ROOM_AND_NETWORK
    if kind is SanctionKind.RANKING_PENALTY:
        fields["ranking_penalty_positions"] = 3
    if kind is SanctionKind.PENDING_TOURNAMENTS_DISQUALIFICATION:
        fields["context"] = SanctionContext.AFTER_TOURNAMENT
    return impose([make_report()], **(fields | changes))


@pytest.fixture
def t0() -> datetime:
    """When the sample decisions are taken."""
    return T0


@pytest.fixture
def report_of() -> Callable[..., Report]:
    """report_of(report_id="r1", offender="bad", **field changes) -> a valid player report."""
    return make_report


@pytest.fixture
def sanction_of() -> Callable[..., Sanction]:
    """sanction_of(kind, **field changes) -> a valid decision on make_report() at T0."""
    return make_sanction


@pytest.fixture
def record_of() -> Callable[..., SanctionRecord]:
    """record_of(kind, **field changes) -> that decision as a registry record without appeal."""
    return lambda kind=SanctionKind.WRITTEN_WARNING, **changes: SanctionRecord(make_sanction(kind, **changes))


# The service tests share a support module next to this file.
sys.path.insert(0, str(Path(__file__).parent))

from platform_kit.testing import MigratedSqlite  # noqa: E402
from rating.app import MIGRATIONS  # noqa: E402
from rating_service_support import Service, running_service  # noqa: E402


@pytest.fixture
def fresh_sqlite(migrated_sqlite: MigratedSqlite, tmp_path: Path) -> str:
    """The URL of a migrated SQLite database of this test's own (start it with migrate_on_start=False)."""
    return migrated_sqlite.copy(MIGRATIONS, tmp_path / "rating.db")


@pytest.fixture
async def service(fresh_sqlite: str) -> AsyncIterator[Service]:
    """The rating service on SQLite and the in-memory bus, clock frozen at NOW."""
    async with running_service(fresh_sqlite, migrate_on_start=False) as running:
        yield running
