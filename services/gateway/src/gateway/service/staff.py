"""Staff members: the bootstrap network administrator, and concessionaire operators created by administrators."""

from __future__ import annotations

import logging

from platform_kit.errors import Conflict
from sqlalchemy.exc import IntegrityError

from gateway.adapters import identity_store
from gateway.adapters.identity_store import StaffRecord
from gateway.domain.roles import Role
from gateway.service.context import Context

log = logging.getLogger(__name__)


class Staff:
    def __init__(self, context: Context) -> None:
        self._context = context

    async def ensure_admin(self, email: str, password: str) -> None:
        """The administrator from the settings, created once. Later changes to the configured password do not
        touch an existing account (it may have been changed since)."""
        async with self._context.units.reading() as session:
            if await identity_store.staff_by_email(session, email) is not None:
                return
        try:
            await self._create(email, password, Role.ADMIN, None)
            log.info("bootstrap network administrator created", extra={"email": email})
        except Conflict:
            pass  # another gateway instance created it first

    async def create_operator(self, concessionaire_id: str, email: str, password: str) -> StaffRecord:
        async with self._context.units.reading() as session:
            await identity_store.require_concessionaire(session, concessionaire_id)
        return await self._create(email, password, Role.OPERATOR, concessionaire_id)

    async def _create(self, email: str, password: str, role: Role, concessionaire_id: str | None) -> StaffRecord:
        record = StaffRecord(
            id=self._context.secrets.new_id(),
            email=email,
            role=role,
            concessionaire_id=concessionaire_id,
            password_hash=await self._context.passwords.hash(password),
            created_at=self._context.clock.now(),
        )
        try:
            async with self._context.units.unit() as uow:
                if await identity_store.staff_by_email(uow.session, email) is not None:
                    raise Conflict("email_taken", "A staff member with this email already exists.")
                await identity_store.insert_staff(uow.session, record)
        except IntegrityError:
            raise Conflict("email_taken", "A staff member with this email already exists.") from None
        return record
