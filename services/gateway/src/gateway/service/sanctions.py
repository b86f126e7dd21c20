"""The sanctions registry's decisions (rating service events) turned into the gateway's player restrictions.

Bans stop log-in (P-12.5) when they cover the network or the player's own concessionaire (a ban from another
concessionaire's room is that room's business: the director keeps the player out of its tournaments).
Chat bans are recorded for the chat proxy. Other sanctions (warnings, disqualifications, ranking penalties)
are not the gateway's to enforce.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from platform_kit.bus import Envelope
from platform_kit.clock import Clock
from platform_kit.db import after_commit
from platform_kit.events.rating import SanctionDecided, SanctionLifted
from platform_kit.instants import as_utc
from sqlalchemy.ext.asyncio import AsyncSession

from gateway.adapters import identity_store
from gateway.domain.restrictions import RestrictionKind
from gateway.service.restrictions import lift_player_restriction, set_player_restriction

DECIDED = SanctionDecided.TYPE
LIFTED = SanctionLifted.TYPE

_RESTRICTION_OF = {
    "temporary_ban": RestrictionKind.BANNED,
    "permanent_ban": RestrictionKind.BANNED,
    "temporary_chat_ban": RestrictionKind.CHAT_BANNED,
    "permanent_chat_ban": RestrictionKind.CHAT_BANNED,
}


class SanctionConsumer:
    """`runtime.on(DECIDED, consumer.decided)`; `on_ban(player_id)` runs when a ban is recorded (e.g. to close
    the player's WebSockets)."""

    def __init__(self, clock: Clock, on_ban: Callable[[str], object] | None = None) -> None:
        self._clock = clock
        self._on_ban = on_ban

    async def decided(self, session: AsyncSession, envelope: Envelope) -> None:
        event = envelope.event()
        assert isinstance(event, SanctionDecided)
        kind = _RESTRICTION_OF.get(event.kind)
        player = await identity_store.get_player(session, event.player_id)
        if kind is None or player is None:
            return
        if kind is RestrictionKind.BANNED and event.ban_scope == "room" and event.room_id != player.concessionaire_id:
            return
        until = as_utc(datetime.fromisoformat(event.ends_at)) if event.ends_at else None
        now = self._clock.now()
        await set_player_restriction(session, event.sanction_id, player.id, kind, until, event.reason, now)
        if kind is RestrictionKind.BANNED and self._on_ban is not None:
            # Only once the ban is committed: a client that reconnects as soon as it is closed must find it.
            on_ban, player_id = self._on_ban, player.id
            after_commit(session, lambda: on_ban(player_id))

    async def lifted(self, session: AsyncSession, envelope: Envelope) -> None:
        event = envelope.event()
        assert isinstance(event, SanctionLifted)
        await lift_player_restriction(session, event.sanction_id)
