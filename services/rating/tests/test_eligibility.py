"""Restricted and invitation-only tournaments (P-11.7), with sanctions (P-12.5)."""

from collections.abc import Callable
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rating.domain import (
    AccessPolicy,
    Eligibility,
    EligibilityReason,
    InvalidAccessPolicy,
    SanctionKind,
    SanctionRecord,
    Tier,
    check_eligibility,
    restrictions_at,
    tournament_effects,
)

R = EligibilityReason
LOWEST_TWO = frozenset({Tier.LISTED, Tier.CONDIZIONATA})


def test_p11_7_an_open_tournament_admits_every_tier() -> None:
    assert all(check_eligibility(AccessPolicy(), "p", tier) == Eligibility(True, R.ELIGIBLE) for tier in Tier)


def test_p11_7_restricted_to_the_two_lowest_tiers_as_in_the_seed_example() -> None:
    policy = AccessPolicy(allowed_tiers=LOWEST_TWO)
    assert check_eligibility(policy, "p", Tier.LISTED).eligible
    assert check_eligibility(policy, "p", Tier.CONDIZIONATA).eligible
    assert check_eligibility(policy, "p", Tier.GRUPPO_UNO) == Eligibility(False, R.TIER_NOT_ALLOWED)
    assert check_eligibility(policy, "p", Tier.ESORDIENTE).reason is R.TIER_NOT_ALLOWED


def test_p11_7_closed_to_given_tiers() -> None:
    policy = AccessPolicy(excluded_tiers=frozenset({Tier.GRUPPO_UNO}))
    assert check_eligibility(policy, "p", Tier.GRUPPO_UNO) == Eligibility(False, R.TIER_EXCLUDED)
    assert check_eligibility(policy, "p", Tier.INATTIVO).eligible


def test_p11_7_newcomers_only() -> None:
    policy = AccessPolicy(allowed_tiers=frozenset({Tier.ESORDIENTE}))
    assert check_eligibility(policy, "p", Tier.ESORDIENTE).eligible
    assert not check_eligibility(policy, "p", Tier.INATTIVO).eligible


def test_p11_7_invitation_only_admits_the_invited_alone() -> None:
    policy = AccessPolicy(invitation_only=True, invited_player_ids=frozenset({"guest"}))
    assert check_eligibility(policy, "guest", Tier.GRUPPO_TRE).eligible
    assert check_eligibility(policy, "stranger", Tier.GRUPPO_TRE) == Eligibility(False, R.NOT_INVITED)
    assert check_eligibility(AccessPolicy(invitation_only=True), "anyone", Tier.GRUPPO_UNO).reason is R.NOT_INVITED


def test_p11_7_an_invitation_does_not_lift_a_tier_restriction() -> None:
    policy = AccessPolicy(allowed_tiers=LOWEST_TWO, invitation_only=True, invited_player_ids=frozenset({"guest"}))
    assert check_eligibility(policy, "guest", Tier.GRUPPO_UNO).reason is R.TIER_NOT_ALLOWED
    assert check_eligibility(policy, "stranger", Tier.GRUPPO_UNO).reason is R.NOT_INVITED


@pytest.mark.parametrize(
    "policy",
    [
        {"allowed_tiers": LOWEST_TWO, "excluded_tiers": frozenset({Tier.GRUPPO_UNO})},
        {"allowed_tiers": frozenset()},
        {"invited_player_ids": frozenset({"guest"})},
    ],
)
def test_p11_7_contradictory_policies_are_refused(policy: dict[str, object]) -> None:
    with pytest.raises(InvalidAccessPolicy):
        AccessPolicy(**policy)  # type: ignore[arg-type]


def test_p12_5_a_banned_player_cannot_register_whatever_the_policy(
    record_of: Callable[..., SanctionRecord], t0: datetime
) -> None:
    banned = restrictions_at([record_of(SanctionKind.PERMANENT_BAN)], t0, "room-a")
    assert check_eligibility(AccessPolicy(), "p", Tier.GRUPPO_UNO, restrictions=banned) == Eligibility(False, R.BANNED)
    muted = restrictions_at([record_of(SanctionKind.PERMANENT_CHAT_BAN)], t0, "room-a")
    assert check_eligibility(AccessPolicy(), "p", Tier.GRUPPO_UNO, restrictions=muted).eligible


def test_p12_3_a_player_disqualified_from_this_tournament_cannot_register_again(
    record_of: Callable[..., SanctionRecord], t0: datetime
) -> None:
    effects = tournament_effects(
        [record_of(SanctionKind.TOURNAMENT_DISQUALIFICATION)],
        "t-live",
        room_id="room-a",
        registered_at=t0,
        finished_at=None,
        at=t0,
    )
    assert check_eligibility(AccessPolicy(), "p", Tier.LISTED, disqualified=effects.disqualified).reason is (
        R.DISQUALIFIED
    )


@given(
    st.one_of(st.none(), st.frozensets(st.sampled_from(Tier), min_size=1)),
    st.frozensets(st.sampled_from(Tier)),
    st.sampled_from(Tier),
)
def test_p11_7_tier_rule_is_membership_in_allowed_and_not_excluded(
    allowed: frozenset[Tier] | None, excluded: frozenset[Tier], tier: Tier
) -> None:
    if allowed is not None and excluded:
        excluded = frozenset()
    decision = check_eligibility(AccessPolicy(allowed_tiers=allowed, excluded_tiers=excluded), "p", tier)
    assert decision.eligible == ((allowed is None or tier in allowed) and tier not in excluded)
    assert decision.eligible == (decision.reason is R.ELIGIBLE)
