"""Sessions: an access token plus a rotating refresh token (one family per log-in).

Refreshing uses the refresh token once and issues a new pair in the same family. A second use of a token means
it leaked: the whole family is revoked (reuse detection). Log-out revokes the family.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from platform_kit.errors import ProblemError
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store, session_store
from gateway.adapters.secret_factory import digest
from gateway.adapters.session_store import RefreshTokenRecord
from gateway.domain.refresh import RefreshVerdict, judge
from gateway.domain.roles import Principal, Role
from gateway.service.context import Context
from gateway.service.errors import Unauthenticated
from gateway.service.protection import start_session
from gateway.service.restrictions import PlayerBanned, standing_of


@dataclass(frozen=True, slots=True)
class IssuedSession:
    principal: Principal
    access_token: str
    access_expires_at: datetime
    refresh_token: str
    refresh_expires_at: datetime


_REFUSALS = {
    RefreshVerdict.EXPIRED: ("refresh_token_expired", "The session has expired; log in again."),
    RefreshVerdict.REVOKED: ("refresh_token_revoked", "The session has ended; log in again."),
    RefreshVerdict.REUSED: (
        "refresh_token_reused",
        "This refresh token was already used: the session is ended everywhere; log in again.",
    ),
}


class Sessions:
    def __init__(self, context: Context) -> None:
        self._context = context

    async def open(self, session: AsyncSession, principal: Principal, family_id: str | None = None) -> IssuedSession:
        """Issue a new pair; a new family unless continuing one (refresh). Inside the caller's transaction."""
        context = self._context
        now = context.clock.now()
        refresh_token = context.secrets.refresh_token()
        record = RefreshTokenRecord(
            id=context.secrets.new_id(),
            family_id=family_id or context.secrets.new_id(),
            token_hash=digest(refresh_token),
            subject_role=principal.role,
            subject_id=principal.subject_id,
            issued_at=now,
            expires_at=now + context.refresh_ttl,
        )
        await session_store.insert(session, record)
        if principal.role is Role.PLAYER and family_id is None:
            await start_session(session, principal.subject_id, now)  # a log-in: a new play session (issue 17)
        access = context.access_tokens.issue(principal)
        return IssuedSession(principal, access.token, access.expires_at, refresh_token, record.expires_at)

    async def refresh(self, refresh_token: str) -> IssuedSession:
        async with self._context.units.unit() as uow:
            outcome = await self._rotate(uow.session, refresh_token)
        # A refusal is raised only now, so that the family's revocation commits with the transaction.
        if isinstance(outcome, ProblemError):
            raise outcome
        return outcome

    async def close(self, refresh_token: str) -> None:
        """Log out: end the token's family. Unknown or already-ended tokens are accepted silently."""
        async with self._context.units.unit() as uow:
            record = await session_store.by_hash(uow.session, digest(refresh_token))
            if record is not None:
                await session_store.revoke_family(uow.session, record.family_id, self._context.clock.now())

    async def _rotate(self, session: AsyncSession, refresh_token: str) -> IssuedSession | ProblemError:
        now = self._context.clock.now()
        record = await session_store.by_hash(session, digest(refresh_token))
        if record is None:
            return Unauthenticated("invalid_refresh_token", "Unknown refresh token; log in again.")
        verdict = judge(record.state, now)
        if verdict is RefreshVerdict.VALID and not await session_store.mark_used(session, record.id, now):
            verdict = RefreshVerdict.REUSED  # a concurrent refresh with the same token won the race
        principal = (
            await self._current_principal(session, record, now)
            if verdict is RefreshVerdict.VALID
            else Unauthenticated(*_REFUSALS[verdict])
        )
        if isinstance(principal, ProblemError):
            await session_store.revoke_family(session, record.family_id, now)
            return principal
        return await self.open(session, principal, record.family_id)

    async def _current_principal(
        self, session: AsyncSession, record: RefreshTokenRecord, now: datetime
    ) -> Principal | ProblemError:
        """The account as it is now: it may have been banned or removed since the log-in."""
        gone = Unauthenticated("account_unavailable", "The account no longer exists; log in again.")
        if record.subject_role is Role.PLAYER:
            player = await identity_store.get_player(session, record.subject_id)
            if player is None:
                return gone
            standing = await standing_of(session, player.id, now)
            if not standing.may_log_in:
                return PlayerBanned(standing)
            return player.principal
        staff = await identity_store.get_staff(session, record.subject_id)
        if staff is None:
            return gone
        return staff.principal
