"""Tier restrictions and invitations (P-11.7)."""

from tournament_director.domain.access import AccessRefusal, AccessRestrictions, SkillTier, access_refusal


def test_p11_7_restricted_to_tiers() -> None:
    lowest_two = AccessRestrictions(allowed_tiers=frozenset({SkillTier.LISTED, SkillTier.CONDIZIONATA}))
    assert access_refusal(lowest_two, SkillTier.LISTED, invited=False) is None
    assert access_refusal(lowest_two, SkillTier.GRUPPO_UNO, invited=False) is AccessRefusal.TIER_NOT_ALLOWED


def test_p11_7_closed_to_tiers() -> None:
    no_top = AccessRestrictions(excluded_tiers=frozenset({SkillTier.GRUPPO_UNO}))
    assert access_refusal(no_top, SkillTier.GRUPPO_UNO, invited=True) is AccessRefusal.TIER_EXCLUDED
    assert access_refusal(no_top, SkillTier.ESORDIENTE, invited=False) is None


def test_p11_7_invitation_only() -> None:
    private = AccessRestrictions(invitation_only=True)
    assert access_refusal(private, SkillTier.GRUPPO_DUE, invited=False) is AccessRefusal.NOT_INVITED
    assert access_refusal(private, SkillTier.GRUPPO_DUE, invited=True) is None
