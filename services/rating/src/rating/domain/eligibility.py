"""Who may enter a restricted or invitation-only tournament (P-11.7), sanctions included (P-12.5).

Interpretation: a tournament is either restricted to some tiers, or closed to some tiers, or open to all
tiers; independently it may be by invitation only. Both conditions apply: an invitation does not lift a
tier restriction (to invite across tiers, set none). Checks run in this order and the first failing one
gives the reason: banned, disqualified from this tournament, not invited, tier not allowed, tier excluded.
"""

from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidAccessPolicy
from .restrictions import NO_RESTRICTIONS, PlayerRestrictions
from .tiers import Tier


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    """A tournament's access restrictions (P-3.3, P-11.7). The default is open to everyone."""

    allowed_tiers: frozenset[Tier] | None = None  # restricted to these tiers; None: no restriction
    excluded_tiers: frozenset[Tier] = frozenset()  # closed to these tiers
    invitation_only: bool = False
    invited_player_ids: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.allowed_tiers is not None and self.excluded_tiers:
            raise InvalidAccessPolicy("a tournament is restricted to some tiers or closed to some, not both")
        if self.allowed_tiers is not None and not self.allowed_tiers:
            raise InvalidAccessPolicy("a tournament restricted to no tier could admit nobody")
        if self.invited_player_ids and not self.invitation_only:
            raise InvalidAccessPolicy("an invitation list only makes sense for an invitation-only tournament")


class EligibilityReason(StrEnum):
    ELIGIBLE = "eligible"
    BANNED = "banned"
    DISQUALIFIED = "disqualified"
    NOT_INVITED = "not_invited"
    TIER_NOT_ALLOWED = "tier_not_allowed"
    TIER_EXCLUDED = "tier_excluded"


@dataclass(frozen=True, slots=True)
class Eligibility:
    eligible: bool
    reason: EligibilityReason


def check_eligibility(
    policy: AccessPolicy,
    player_id: str,
    tier: Tier,
    *,
    restrictions: PlayerRestrictions = NO_RESTRICTIONS,
    disqualified: bool = False,
) -> Eligibility:
    """May the player register? `tier` is the player's tier in force (the service's latest tier table);
    `restrictions` come from `restrictions_at`, `disqualified` from `tournament_effects` for this
    tournament."""
    reason = _first_failing_check(policy, player_id, tier, restrictions, disqualified)
    return Eligibility(reason is EligibilityReason.ELIGIBLE, reason)


def _first_failing_check(
    policy: AccessPolicy,
    player_id: str,
    tier: Tier,
    restrictions: PlayerRestrictions,
    disqualified: bool,
) -> EligibilityReason:
    if not restrictions.can_register:
        return EligibilityReason.BANNED
    if disqualified:
        return EligibilityReason.DISQUALIFIED
    if policy.invitation_only and player_id not in policy.invited_player_ids:
        return EligibilityReason.NOT_INVITED
    if policy.allowed_tiers is not None and tier not in policy.allowed_tiers:
        return EligibilityReason.TIER_NOT_ALLOWED
    if tier in policy.excluded_tiers:
        return EligibilityReason.TIER_EXCLUDED
    return EligibilityReason.ELIGIBLE
