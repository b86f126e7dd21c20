"""Partner API keys: one concessionaire each, shown once at creation, stored as a digest, revocable."""

from __future__ import annotations

from dataclasses import dataclass

from platform_kit.errors import NotFound

from gateway.adapters import api_key_store, identity_store
from gateway.adapters.api_key_store import ApiKeyRecord
from gateway.adapters.secret_factory import api_key_prefix, same_digest
from gateway.domain.roles import Principal, Role
from gateway.service.access import require_manages
from gateway.service.context import Context


@dataclass(frozen=True, slots=True)
class CreatedApiKey:
    record: ApiKeyRecord
    key: str  # the only time the full key exists outside the partner's systems


class ApiKeys:
    def __init__(self, context: Context) -> None:
        self._context = context

    async def create(self, by: Principal, concessionaire_id: str, label: str) -> CreatedApiKey:
        require_manages(by, concessionaire_id)
        new_key = self._context.secrets.api_key()
        record = ApiKeyRecord(
            id=self._context.secrets.new_id(),
            concessionaire_id=concessionaire_id,
            prefix=new_key.prefix,
            secret_hash=new_key.secret_hash,
            label=label,
            created_by=by.subject_id,
            created_at=self._context.clock.now(),
        )
        async with self._context.units.unit() as uow:
            await identity_store.require_concessionaire(uow.session, concessionaire_id)
            await api_key_store.insert(uow.session, record)
        return CreatedApiKey(record, new_key.key)

    async def of_concessionaire(self, by: Principal, concessionaire_id: str) -> list[ApiKeyRecord]:
        require_manages(by, concessionaire_id)
        async with self._context.units.reading() as session:
            return await api_key_store.for_concessionaire(session, concessionaire_id)

    async def revoke(self, by: Principal, concessionaire_id: str, key_id: str) -> None:
        require_manages(by, concessionaire_id)
        async with self._context.units.unit() as uow:
            if not await api_key_store.revoke(uow.session, key_id, concessionaire_id, self._context.clock.now()):
                raise NotFound("api_key_not_found", "The concessionaire has no such API key.")

    async def authenticate(self, key: str) -> Principal | None:
        """The partner principal of a valid, unrevoked key; None otherwise."""
        prefix = api_key_prefix(key)
        if prefix is None:
            return None
        async with self._context.units.reading() as session:
            record = await api_key_store.by_prefix(session, prefix)
        if record is None or record.revoked_at is not None or not same_digest(key, record.secret_hash):
            return None
        return Principal(Role.PARTNER, record.id, record.concessionaire_id)
