"""May a player enter a restricted or invitation-only tournament (P-11.7), sanctions included (P-12.5)?

Answered from indexed single-player reads: the tier in force, the player's concessionaire and their
sanctions (usually none).
"""

from __future__ import annotations

from dataclasses import dataclass

from rating.adapters.conduct import sanctions_of
from rating.adapters.players import find_player
from rating.adapters.tiers import tier_in_force
from rating.domain import AccessPolicy, Eligibility, Tier, check_eligibility, restrictions_at, tournament_effects
from rating.service.context import Context


@dataclass(frozen=True, slots=True)
class EligibilityAnswer:
    eligibility: Eligibility
    tier: Tier


async def eligibility(
    context: Context, player_id: str, policy: AccessPolicy, tournament_id: str | None
) -> EligibilityAnswer:
    now = context.now()
    # Reads only: no transaction on PostgreSQL (three round trips, not five; every registration asks).
    async with context.units.reading() as session:
        tier, _ = await tier_in_force(session, player_id)
        player = await find_player(session, player_id)
        records = [stored.record for stored in await sanctions_of(session, player_id)]
    # The player registers through their own concessionaire's room; unknown yet, only network bans apply.
    room = "" if player is None else player.concessionaire_id
    disqualified = (
        tournament_id is not None
        and (
            tournament_effects(records, tournament_id, room_id=room, registered_at=now, finished_at=None, at=now)
        ).disqualified
    )
    verdict = check_eligibility(
        policy, player_id, tier, restrictions=restrictions_at(records, now, room), disqualified=disqualified
    )
    return EligibilityAnswer(verdict, tier)
