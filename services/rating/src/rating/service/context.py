"""What every use case needs: the database, the outbox, the clock and the network's reference time zone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from platform_kit.clock import Clock
from platform_kit.db import Database
from platform_kit.outbox import Outbox
from platform_kit.unit_of_work import UnitsOfWork


@dataclass(frozen=True)
class Context:
    db: Database
    outbox: Outbox
    clock: Clock
    zone: ZoneInfo

    @property
    def units(self) -> UnitsOfWork:
        """Where use cases take their one transaction (`unit()`) or read session (`reading()`); they open none
        on `db` themselves (`tests/test_kit_plumbing.py`)."""
        return UnitsOfWork(self.db, self.outbox)

    def now(self) -> datetime:
        """In UTC, as every instant is stored."""
        return self.clock.now().astimezone(UTC)

    def today(self) -> date:
        """The rating day in progress: today's date in the reference zone."""
        return self.local_day(self.now())

    def yesterday(self) -> date:
        """The last day that has closed."""
        return self.today() - timedelta(days=1)

    def local_day(self, instant: datetime) -> date:
        return instant.astimezone(self.zone).date()
