"""What every use case needs: the database, the outbox, the clock, the wallet (its stakes, and the outgoing calls\nof the draws' transfers) and the settings."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime

from platform_kit.clock import Clock
from platform_kit.db import Database
from platform_kit.outbox import Outbox
from platform_kit.outgoing_calls import OutgoingCalls
from platform_kit.unit_of_work import UnitsOfWork

from totalizator.adapters.draws import DrawCache
from totalizator.service.wallet import WalletPort
from totalizator.settings import Settings


@dataclass
class Context:
    db: Database
    outbox: Outbox
    clock: Clock
    wallet: WalletPort
    #: The wallet calls that make a draw's transfers (service/transfers.py), answered in a transaction each.
    calls: OutgoingCalls
    settings: Settings
    # Coupon ids are drawn from it: secrets-backed in production, seeded in tests.
    rng: random.Random = field(default_factory=random.SystemRandom)
    draws: DrawCache = field(default_factory=DrawCache)

    @property
    def units(self) -> UnitsOfWork:
        """Where use cases take their one transaction (`unit()`) or read session (`reading()`); they open none
        on `db` themselves (`tests/test_kit_plumbing.py`)."""
        return UnitsOfWork(self.db, self.outbox)

    def now(self) -> datetime:
        """In UTC, as every instant is stored."""
        return self.clock.now().astimezone(UTC)

    def new_coupon_id(self) -> str:
        """64 random bits: unguessable, so a coupon id in the public bet file (T-8.3) reveals nothing."""
        return f"C{self.rng.getrandbits(64):016X}"
