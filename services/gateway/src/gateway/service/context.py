"""What the use cases need, built once per app (bootstrap.py): database, outbox, the broker for commands, clock,
hashing, token codec, randomness, and the key the house bots' nicknames are signed with. Named `Context` as in
the other services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from platform_kit.clock import Clock
from platform_kit.db import Database
from platform_kit.outbox import Outbox
from platform_kit.sender import ConfirmedSender
from platform_kit.unit_of_work import UnitsOfWork

from gateway.adapters.access_tokens import AccessTokenCodec
from gateway.adapters.passwords import PasswordHasher
from gateway.adapters.secret_factory import SecretFactory


@dataclass(frozen=True, slots=True)
class Context:
    db: Database
    outbox: Outbox
    sender: ConfirmedSender
    clock: Clock
    passwords: PasswordHasher
    access_tokens: AccessTokenCodec
    secrets: SecretFactory
    refresh_ttl: timedelta
    house_key: str  # the internal token (gateway.domain.bot_names)

    @property
    def units(self) -> UnitsOfWork:
        """Where use cases take their one transaction (`unit()`) or read session (`reading()`); they open none
        on `db` themselves (`tests/test_kit_plumbing.py`)."""
        return UnitsOfWork(self.db, self.outbox)
