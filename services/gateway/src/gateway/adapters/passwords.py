"""Password hashing with argon2id. Hashing is deliberately slow, so it runs in a worker thread rather than
blocking the event loop."""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher as Argon2Hasher
from argon2.exceptions import InvalidHashError, VerificationError


class PasswordHasher:
    def __init__(self, *, time_cost: int, memory_kib: int, parallelism: int = 1) -> None:
        self._argon2 = Argon2Hasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
        # Verifying against this when the account does not exist takes as long as a real check, so response
        # times do not reveal which emails or nicknames are registered.
        self._decoy = self._argon2.hash("decoy password, never matches")

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._argon2.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """False for a wrong password; also for a missing account (`password_hash` None), in the same time."""
        try:
            matched = await asyncio.to_thread(self._argon2.verify, password_hash or self._decoy, password)
        except (VerificationError, InvalidHashError):
            return False
        return matched and password_hash is not None

    def needs_rehash(self, password_hash: str) -> bool:
        """True when the hash was made with weaker parameters than the current ones (rehash at next log-in)."""
        return self._argon2.check_needs_rehash(password_hash)
