"""A player's conduct history as the staff see it when deciding (P-12.2: gravity and repetition)."""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from ._time import require_aware
from .appeals import SanctionRecord
from .conduct import OffenceKind, Report


@dataclass(frozen=True)
class ConductHistory:
    """reports_by_offence: reports filed about the player, upheld or not, by claimed offence.
    sanctions_by_offence: sanctions standing (not overturned), by the offence the staff found —
        the repetition P-12.2 weighs.
    sanctions: the whole trail, oldest first, overturned ones included."""

    player_id: str
    reports_by_offence: Mapping[OffenceKind, int]
    sanctions_by_offence: Mapping[OffenceKind, int]
    sanctions: tuple[SanctionRecord, ...]

    def repetitions(self, offence: OffenceKind) -> int:
        """How many times the player was already sanctioned for this offence."""
        return self.sanctions_by_offence.get(offence, 0)


def conduct_history(
    player_id: str, reports: Iterable[Report], records: Iterable[SanctionRecord], at: datetime
) -> ConductHistory:
    """The history as it stood at `at`: reports filed and sanctions decided by then."""
    require_aware(at, "at")
    filed = [r for r in reports if r.offender_id == player_id and r.filed_at <= at]
    decided = sorted(
        (r for r in records if r.sanction.player_id == player_id and r.sanction.decided_at <= at),
        key=lambda r: r.sanction.decided_at,
    )
    return ConductHistory(
        player_id,
        MappingProxyType(Counter(r.offence for r in filed)),
        MappingProxyType(Counter(r.sanction.offence for r in decided if r.stands_at(at))),
        tuple(decided),
    )
