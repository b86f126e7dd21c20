"""Player data as staff, partners and the players themselves see it: each caller only what it may see."""

from __future__ import annotations

from platform_kit.errors import Conflict, NotFound, ProblemError
from sqlalchemy.exc import IntegrityError

from gateway.adapters import identity_store
from gateway.adapters.identity_store import PlayerRecord
from gateway.domain.roles import Principal, Role
from gateway.service.context import Context
from gateway.service.good_standing import refuse_unless_in_good_standing
from gateway.service.standing_reads import StandingReads


class Players:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._reads = StandingReads(context.units.read_connection)

    async def get(self, by: Principal, player_id: str) -> PlayerRecord:
        player = await self._reads.player(player_id)
        # Another concessionaire's player answers exactly like a missing one: their existence is not disclosed.
        if player is None or not by.may_see_player(player.id, player.concessionaire_id):
            raise NotFound("player_not_found", "No such player.")
        return player

    async def target(self, by: Principal, player_id: str | None) -> PlayerRecord:
        """The player a command is for: a player acts for themself; partners, operators and administrators name
        one of the players they manage (anyone else answers 404, like a missing player)."""
        if by.role is Role.PLAYER:
            _refuse_naming_another_player(by, player_id)
            return await self.get(by, by.subject_id)
        if player_id is None:
            raise ProblemError("player_required", "Name the player this is for (`player_id`).", status=422)
        return await self.get(by, player_id)

    async def in_good_standing(self, player_id: str, *, own_session: bool) -> PlayerRecord | None:
        """Refuses the player unless in good standing (P-12.5, issue 17); their record, read with the standing in one
        statement with the other players asked for at the time (None: no such player, and nothing refused).
        `own_session` False: someone else acts for the player, so the session limit, which is the player's own, does
        not apply."""
        now = self._context.clock.now()
        standing = await self._reads.standing(player_id)
        return refuse_unless_in_good_standing(standing, now, own_session=own_session)

    async def own_in_good_standing(self, player: Principal) -> PlayerRecord:
        """A player acting for themself where play needs good standing (betting), with their record (issue 14)."""
        record = await self.in_good_standing(player.subject_id, own_session=True)
        if record is None:
            raise NotFound("player_not_found", "No such player.")
        return record

    async def registrant(self, by: Principal, player_id: str | None) -> PlayerRecord:
        """The player a registration is for (`target`), refused unless in good standing (P-12.5; self-excluded
        too, issue 17). A player registering themself: their record read with their standing, one round trip
        (issue 14: a registration rush read it twice). Someone else naming a player: the player is found in their
        scope first, so that another concessionaire's player answers 404 before their standing is told."""
        if by.role is Role.PLAYER:
            _refuse_naming_another_player(by, player_id)
            return await self.own_in_good_standing(by)
        player = await self.target(by, player_id)
        await self.in_good_standing(player.id, own_session=False)
        return player

    async def page(
        self, by: Principal, concessionaire_id: str | None, *, limit: int, offset: int
    ) -> list[PlayerRecord]:
        """Operators and partners always get their own concessionaire's players; admins may filter by one."""
        scope = concessionaire_id if by.role is Role.ADMIN else by.concessionaire_id
        async with self._context.units.reading() as session:
            return await identity_store.list_players(session, scope, limit=limit, offset=offset)

    async def change_email(self, by: Principal, player_id: str, email: str) -> PlayerRecord:
        player = await self.get(by, player_id)
        try:
            async with self._context.units.unit() as uow:
                if email != player.email and await identity_store.email_taken(uow.session, email):
                    raise Conflict("email_taken", "An account with this email already exists.")
                await identity_store.update_player(uow.session, player_id, email=email)
        except IntegrityError:
            raise Conflict("email_taken", "An account with this email already exists.") from None
        return await self.get(by, player_id)

    async def nicknames(self, player_ids: list[str]) -> dict[str, str]:
        """P-11.5: what anyone may know of a player is the nickname."""
        async with self._context.units.reading() as session:
            return await identity_store.nicknames(session, player_ids)


def _refuse_naming_another_player(player: Principal, player_id: str | None) -> None:
    """A player acts for themself only: naming anyone else answers 404, as a missing player does."""
    if player_id not in (None, player.subject_id):
        raise NotFound("player_not_found", "No such player.")
