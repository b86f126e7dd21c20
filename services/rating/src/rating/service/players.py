"""Nicknames and concessionaires copied from the gateway, which owns identities (P-11.5)."""

from __future__ import annotations

from platform_kit.bus import Envelope
from platform_kit.errors import NotFound
from platform_kit.events.gateway import PlayerRegistered
from sqlalchemy.ext.asyncio import AsyncSession

from rating.adapters.players import Player, find_player, save_player


async def on_player_registered(session: AsyncSession, envelope: Envelope) -> None:
    event = envelope.event()
    assert isinstance(event, PlayerRegistered)
    await save_player(session, Player(event.player_id, event.nickname, event.concessionaire_id), event.registered_at)


async def known_player(session: AsyncSession, player_id: str) -> Player:
    """The player, once the gateway has announced them; conduct decisions need their concessionaire."""
    player = await find_player(session, player_id)
    if player is None:
        raise NotFound("rating.player_unknown", f"No player {player_id} is known to the rating service.")
    return player
