"""The rating service's eligibility check (P-11.7, P-12.5): skill tiers, invitations, bans, disqualification."""

from __future__ import annotations

from dataclasses import dataclass

from tournament_director.adapters.http import AnswerClient, ServiceUnavailable
from tournament_director.domain.access import AccessRestrictions


@dataclass(frozen=True)
class Eligibility:
    eligible: bool
    #: `eligible`, or why not: banned, disqualified, not_invited, tier_not_allowed, tier_excluded.
    reason: str
    tier: str


class RatingClient(AnswerClient):
    async def eligibility(
        self, player_id: str, tournament_id: str, restrictions: AccessRestrictions, invited: bool
    ) -> Eligibility:
        # The rating service names tiers in capitals (GRUPPO_UNO); the director's domain in lower case.
        allowed = restrictions.allowed_tiers
        body = {
            "player_id": player_id,
            "tournament_id": tournament_id,
            "allowed_tiers": None if allowed is None else sorted(tier.value.upper() for tier in allowed),
            "excluded_tiers": sorted(tier.value.upper() for tier in restrictions.excluded_tiers),
            "invitation_only": restrictions.invitation_only,
            "invited": invited,
        }
        answer = await self.post("/internal/v1/eligibility", body)
        if not answer.ok:
            raise ServiceUnavailable(f"eligibility refused the question: {answer.status} {answer.code}")
        return Eligibility(bool(answer.body["eligible"]), str(answer.body["reason"]), str(answer.body["tier"]))
