"""Who may register: skill-tier restrictions and invitations (P-11.7)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class SkillTier(StrEnum):
    """The rating tiers of P-11.3 and P-11.4 (the rating service assigns them)."""

    GRUPPO_UNO = "gruppo_uno"
    GRUPPO_DUE = "gruppo_due"
    GRUPPO_TRE = "gruppo_tre"
    LISTED = "listed"
    CONDIZIONATA = "condizionata"
    ESORDIENTE = "esordiente"
    INATTIVO = "inattivo"


class AccessRestrictions(BaseModel):
    """P-11.7: a tournament may be restricted to some tiers, closed to others, or by invitation only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Only these tiers may register; `None` means every tier.
    allowed_tiers: frozenset[SkillTier] | None = None
    excluded_tiers: frozenset[SkillTier] = frozenset()
    invitation_only: bool = False


class AccessRefusal(StrEnum):
    TIER_NOT_ALLOWED = "tier_not_allowed"
    TIER_EXCLUDED = "tier_excluded"
    NOT_INVITED = "not_invited"


def access_refusal(restrictions: AccessRestrictions, tier: SkillTier, invited: bool) -> AccessRefusal | None:
    """Why a player of `tier` may not register (P-11.7), or `None` when they may."""
    if restrictions.allowed_tiers is not None and tier not in restrictions.allowed_tiers:
        return AccessRefusal.TIER_NOT_ALLOWED
    if tier in restrictions.excluded_tiers:
        return AccessRefusal.TIER_EXCLUDED
    if restrictions.invitation_only and not invited:
        return AccessRefusal.NOT_INVITED
    return None
