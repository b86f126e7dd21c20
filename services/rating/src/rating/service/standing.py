"""A player's standing read from the sanctions registry: restrictions now (P-12.5, for the gateway), the
sanctions trail (for the player and the staff) and the conduct history with a suggestion (P-12.2, staff)."""

from __future__ import annotations

from dataclasses import dataclass

from platform_kit.errors import Forbidden, NotFound

from rating.adapters.conduct import StoredSanction, find_sanction, reports_about, sanctions_of
from rating.adapters.players import find_player
from rating.domain import (
    ConductHistory,
    Gravity,
    OffenceKind,
    PlayerRestrictions,
    SanctionContext,
    SuggestedSanction,
    conduct_history,
    restrictions_at,
    suggest_sanction,
)
from rating.service.context import Context
from rating.service.players import known_player
from rating.service.principals import Principal


@dataclass(frozen=True, slots=True)
class Restrictions:
    restrictions: PlayerRestrictions
    room_id: str
    in_force: list[StoredSanction]  # the sanctions behind the restrictions


async def restrictions(context: Context, player_id: str, room_id: str | None) -> Restrictions:
    """What the player may do now when coming through `room_id` (default: their own concessionaire's room)."""
    now = context.now()
    async with context.units.unit() as uow:
        if room_id is None:
            player = await find_player(uow.session, player_id)
            room_id = "" if player is None else player.concessionaire_id
        trail = await sanctions_of(uow.session, player_id)
    found = restrictions_at([s.record for s in trail], now, room_id)
    behind = set(found.sanction_ids)
    return Restrictions(found, room_id, [s for s in trail if s.record.sanction.sanction_id in behind])


async def sanctions_trail(context: Context, principal: Principal, player_id: str) -> list[StoredSanction]:
    """Every sanction with its appeal, oldest first: for the player themself or the staff over them."""
    async with context.units.unit() as uow:
        player = await known_player(uow.session, player_id)
        if not principal.may_see(player_id, player.concessionaire_id):
            raise Forbidden("rating.not_your_player", "Players see their own sanctions, staff their players'.")
        return await sanctions_of(uow.session, player_id)


@dataclass(frozen=True, slots=True)
class SuggestionRequest:
    offence: OffenceKind
    gravity: Gravity
    context: SanctionContext


@dataclass(frozen=True, slots=True)
class Conduct:
    history: ConductHistory
    trail: list[StoredSanction]
    suggestion: SuggestedSanction | None


async def conduct(
    context: Context, principal: Principal, player_id: str, suggestion_for: SuggestionRequest | None
) -> Conduct:
    """What the staff see before deciding (P-12.2): reports and standing sanctions by offence, the trail,
    and, for a given offence, gravity and context, the sanction the gravity and repetition suggest."""
    now = context.now()
    async with context.units.unit() as uow:
        principal.require_manages((await known_player(uow.session, player_id)).concessionaire_id)
        reports = await reports_about(uow.session, player_id)
        trail = await sanctions_of(uow.session, player_id)
    history = conduct_history(player_id, reports, [s.record for s in trail], now)
    suggestion = None
    if suggestion_for is not None:
        suggestion = suggest_sanction(suggestion_for.offence, suggestion_for.gravity, suggestion_for.context, history)
    return Conduct(history, trail, suggestion)


async def sanction_seen_by(context: Context, principal: Principal, sanction_id: str) -> StoredSanction:
    """One sanction with its appeal: for the sanctioned player or the staff over them."""
    async with context.units.unit() as uow:
        stored = await find_sanction(uow.session, sanction_id)
    if stored is None or not principal.may_see(stored.record.sanction.player_id, stored.record.sanction.room_id):
        raise NotFound("rating.sanction_unknown", f"No sanction {sanction_id}.")
    return stored
