"""Players and staff: sign-up (self-service or by the concessionaire) and log-in.

Password hashing is slow on purpose, so it happens outside database transactions: a transaction holds
SQLite's write lock, and should not hold it for tens of milliseconds of hashing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from platform_kit.errors import Conflict, NotFound, ProblemError
from platform_kit.events.gateway import PlayerRegistered
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store
from gateway.adapters.identity_store import PlayerRecord
from gateway.domain.bot_names import signed_by_house
from gateway.domain.identity import is_adult
from gateway.domain.reserved_names import Reserved, reserved
from gateway.service.context import Context
from gateway.service.login_guard import LoginGuard
from gateway.service.restrictions import refuse_if_banned
from gateway.service.sessions import IssuedSession, Sessions


@dataclass(frozen=True, slots=True)
class PlayerForm:
    """A validated sign-up: nickname and email already checked and normalised by the API layer."""

    nickname: str
    email: str
    date_of_birth: date
    password: str
    house_signature: str | None = None  # a house bot's proof that its nickname is the house's (bot_names)


_RESERVED = {
    Reserved.STAFF: "This nickname could pass for the platform's staff: choose another.",
    Reserved.HOUSE_BOT: "Nicknames like the house bots' (Bot_…) are the house's own: choose another.",
}


class Accounts:
    def __init__(self, context: Context, sessions: Sessions, guard: LoginGuard) -> None:
        self._context = context
        self._sessions = sessions
        self._guard = guard

    async def sign_up(self, concessionaire_code: str, form: PlayerForm) -> IssuedSession:
        """Self-service sign-up through a concessionaire's site: the new player is logged in at once."""
        password_hash = await self._admitted_hash(form)
        try:
            async with self._context.units.unit() as uow:
                concessionaire = await identity_store.concessionaire_by_code(uow.session, concessionaire_code)
                if concessionaire is None:
                    raise NotFound(
                        "concessionaire_not_found", f"No concessionaire has the code {concessionaire_code!r}."
                    )
                player = await self._register(uow.session, concessionaire.id, form, password_hash)
                return await self._sessions.open(uow.session, player.principal)
        except IntegrityError:
            raise _already_registered() from None

    async def register(self, concessionaire_id: str, form: PlayerForm) -> PlayerRecord:
        """A concessionaire (its operator or partner system) registers one of its players."""
        password_hash = await self._admitted_hash(form)
        try:
            async with self._context.units.unit() as uow:
                await identity_store.require_concessionaire(uow.session, concessionaire_id)
                return await self._register(uow.session, concessionaire_id, form, password_hash)
        except IntegrityError:
            raise _already_registered() from None

    async def log_in_player(self, login: str, password: str, address: str) -> IssuedSession:
        """By nickname (any case) or email, from the client's `address` (throttling: service/login_guard.py).
        P-12.5: a banned player is refused, after the password check."""
        async with self._context.units.reading() as session:
            player = await identity_store.player_by_login(session, login)
        await self._guard.check(address, player, password)
        assert player is not None
        new_hash = await self._rehashed(player.password_hash, password)
        async with self._context.units.unit() as uow:
            await refuse_if_banned(uow.session, player.id, self._context.clock.now())
            if new_hash:
                await identity_store.update_player(uow.session, player.id, password_hash=new_hash)
            return await self._sessions.open(uow.session, player.principal)

    async def log_in_staff(self, email: str, password: str, address: str) -> IssuedSession:
        async with self._context.units.reading() as session:
            staff = await identity_store.staff_by_email(session, email.strip().lower())
        await self._guard.check(address, staff, password)
        assert staff is not None
        new_hash = await self._rehashed(staff.password_hash, password)
        async with self._context.units.unit() as uow:
            if new_hash:
                await identity_store.update_staff(uow.session, staff.id, password_hash=new_hash)
            return await self._sessions.open(uow.session, staff.principal)

    async def _admitted_hash(self, form: PlayerForm) -> str:
        """The password's hash, once the nickname is one this sign-up may take: checked first, since hashing is
        slow on purpose. A reserved nickname is refused whoever registers it, except a house bot's own."""
        if not signed_by_house(self._context.house_key, form.nickname, form.house_signature):
            why = reserved(form.nickname)
            if why is not None:
                raise ProblemError("nickname_reserved", _RESERVED[why], status=422, reserved_for=why.value)
        return await self._context.passwords.hash(form.password)

    async def _register(
        self, session: AsyncSession, concessionaire_id: str, form: PlayerForm, password_hash: str
    ) -> PlayerRecord:
        now = self._context.clock.now()
        if not is_adult(form.date_of_birth, now.date()):
            # T-1.4 refuses bets from minors; the platform refuses them an account in the first place.
            raise ProblemError("underage", "Players must be 18 or older.", status=422)
        if await identity_store.nickname_taken(session, form.nickname):
            raise Conflict("nickname_taken", "This nickname is already taken on the network.")
        if await identity_store.email_taken(session, form.email):
            raise Conflict("email_taken", "An account with this email already exists.")
        player = PlayerRecord(
            id=self._context.secrets.new_id(),
            nickname=form.nickname,
            email=form.email,
            date_of_birth=form.date_of_birth,
            concessionaire_id=concessionaire_id,
            password_hash=password_hash,
            created_at=now,
        )
        await identity_store.insert_player(session, player)
        await self._context.outbox.add(
            session,
            PlayerRegistered(
                player_id=player.id,
                nickname=player.nickname,
                concessionaire_id=concessionaire_id,
                date_of_birth=player.date_of_birth,
                registered_at=now,
            ),
        )
        return player

    async def _rehashed(self, password_hash: str, password: str) -> str | None:
        """A new hash when the stored one used weaker parameters than today's (upgraded at log-in)."""
        if self._context.passwords.needs_rehash(password_hash):
            return await self._context.passwords.hash(password)
        return None


def _already_registered() -> Conflict:
    # A concurrent sign-up took the nickname or email between our check and the insert.
    return Conflict("already_registered", "This nickname or email was just registered by someone else.")
