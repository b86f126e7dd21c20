"""Concessionaires: created by network administrators; `demo` is created at start-up for standalone trials."""

from __future__ import annotations

from platform_kit.errors import Conflict
from platform_kit.events.gateway import ConcessionaireCreated
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store
from gateway.adapters.identity_store import ConcessionaireRecord
from gateway.service.context import Context

DEMO_CODE = "demo"
DEMO_NAME = "Demo Concessionaire"


class Concessionaires:
    def __init__(self, context: Context) -> None:
        self._context = context

    async def create(self, code: str, name: str) -> ConcessionaireRecord:
        try:
            async with self._context.units.unit() as uow:
                if await identity_store.concessionaire_by_code(uow.session, code) is not None:
                    raise Conflict("concessionaire_code_taken", f"The code {code!r} is already in use.")
                return await self._create(uow.session, code, name)
        except IntegrityError:
            raise Conflict("concessionaire_code_taken", f"The code {code!r} is already in use.") from None

    async def ensure_demo(self) -> None:
        """Idempotent, and safe when several gateway instances start together."""
        try:
            async with self._context.units.unit() as uow:
                if await identity_store.concessionaire_by_code(uow.session, DEMO_CODE) is None:
                    await self._create(uow.session, DEMO_CODE, DEMO_NAME)
        except IntegrityError:
            pass  # another instance created it first

    async def get(self, concessionaire_id: str) -> ConcessionaireRecord:
        async with self._context.units.reading() as session:
            return await identity_store.require_concessionaire(session, concessionaire_id)

    async def all(self) -> list[ConcessionaireRecord]:
        async with self._context.units.reading() as session:
            return await identity_store.list_concessionaires(session)

    async def _create(self, session: AsyncSession, code: str, name: str) -> ConcessionaireRecord:
        record = ConcessionaireRecord(
            id=self._context.secrets.new_id(), code=code, name=name, created_at=self._context.clock.now()
        )
        await identity_store.insert_concessionaire(session, record)
        await self._context.outbox.add(
            session,
            ConcessionaireCreated(
                concessionaire_id=record.id, code=record.code, name=record.name, created_at=record.created_at
            ),
        )
        return record
