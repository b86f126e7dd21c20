"""A sanction with its appeal trail, and whether it is in force at a given instant.

Interpretation (the seed is silent on appeals): a player may appeal a sanction once; the appeal does not
suspend it; an appeal decided SANCTION_OVERTURNED voids the sanction from that moment (no longer in force, no
longer counted in the player's history), SANCTION_UPHELD leaves it standing. The trail is kept either way.
"""

from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from ._time import require_aware
from .errors import InvalidAppeal
from .sanctions import Sanction


class AppealOutcome(StrEnum):
    """Named after what happens to the sanction, so that "upheld" cannot be misread as the appeal's."""

    SANCTION_UPHELD = "sanction_upheld"
    SANCTION_OVERTURNED = "sanction_overturned"


@dataclass(frozen=True, slots=True)
class Appeal:
    filed_at: datetime
    grounds: str
    outcome: AppealOutcome | None = None
    decided_at: datetime | None = None
    decided_by: str | None = None


@dataclass(frozen=True, slots=True)
class SanctionRecord:
    """A sanction as the registry stores it: the decision and its appeal, if any."""

    sanction: Sanction
    appeal: Appeal | None = None

    def file_appeal(self, at: datetime, grounds: str) -> "SanctionRecord":
        require_aware(at, "an appeal's filing time")
        if self.appeal is not None:
            raise InvalidAppeal(f"sanction {self.sanction.sanction_id} was already appealed")
        if at < self.sanction.decided_at:
            raise InvalidAppeal("an appeal follows the decision it contests")
        return replace(self, appeal=Appeal(filed_at=at, grounds=grounds))

    def decide_appeal(self, outcome: AppealOutcome, at: datetime, decided_by: str) -> "SanctionRecord":
        require_aware(at, "an appeal's decision time")
        if self.appeal is None or self.appeal.outcome is not None:
            raise InvalidAppeal(f"sanction {self.sanction.sanction_id} has no open appeal")
        if at < self.appeal.filed_at:
            raise InvalidAppeal("an appeal is decided after it is filed")
        decided = replace(self.appeal, outcome=outcome, decided_at=at, decided_by=decided_by)
        return replace(self, appeal=decided)

    @property
    def overturned_at(self) -> datetime | None:
        if self.appeal is None or self.appeal.outcome is not AppealOutcome.SANCTION_OVERTURNED:
            return None
        return self.appeal.decided_at

    def stands_at(self, at: datetime) -> bool:
        """Decided by `at` and not overturned by then."""
        overturned = self.overturned_at
        return self.sanction.decided_at <= at and (overturned is None or at < overturned)

    def in_force_at(self, at: datetime) -> bool:
        """Whether its lasting restrictions (chat, access) apply at `at`: a temporary sanction from its
        decision up to, excluding, its end; a permanent one from its decision on; one-offs never."""
        rule = self.sanction.rule
        if not (rule.temporary or rule.permanent) or not self.stands_at(at):
            return False
        ends_at = self.sanction.ends_at
        return ends_at is None or at < ends_at
