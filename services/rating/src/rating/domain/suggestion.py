"""A suggested sanction from gravity and repetition (P-12.2). Advisory: the staff decision counts.

Severity = a base for the gravity (MINOR 0, SERIOUS 2, VERY_SERIOUS 4) + the player's standing sanctions
for the same offence; it picks a step on the ladder of the context, the last step for anything beyond.
"""

from dataclasses import dataclass, replace
from datetime import timedelta

from .conduct import Gravity, OffenceKind
from .history import ConductHistory
from .sanctions import BanScope, SanctionContext, SanctionKind


@dataclass(frozen=True, slots=True)
class SuggestedSanction:
    kind: SanctionKind
    duration: timedelta | None = None
    ban_scope: BanScope | None = None
    severity: int = 0


_GRAVITY_BASE = {Gravity.MINOR: 0, Gravity.SERIOUS: 2, Gravity.VERY_SERIOUS: 4}

_ONE_DAY_CHAT_BAN = SuggestedSanction(SanctionKind.TEMPORARY_CHAT_BAN, timedelta(days=1))
_ONE_WEEK_CHAT_BAN = SuggestedSanction(SanctionKind.TEMPORARY_CHAT_BAN, timedelta(days=7))
_MONTH_BAN = SuggestedSanction(SanctionKind.TEMPORARY_BAN, timedelta(days=30), BanScope.ROOM_AND_NETWORK)

_LADDERS = {
    SanctionContext.DURING_TOURNAMENT: (
        SuggestedSanction(SanctionKind.WRITTEN_WARNING),
        _ONE_DAY_CHAT_BAN,
        _ONE_WEEK_CHAT_BAN,
        SuggestedSanction(SanctionKind.TOURNAMENT_DISQUALIFICATION),
        _MONTH_BAN,
        SuggestedSanction(SanctionKind.PERMANENT_BAN),
    ),
    SanctionContext.AFTER_TOURNAMENT: (
        SuggestedSanction(SanctionKind.WRITTEN_WARNING),
        _ONE_DAY_CHAT_BAN,
        _ONE_WEEK_CHAT_BAN,
        SuggestedSanction(SanctionKind.PENDING_TOURNAMENTS_DISQUALIFICATION),
        _MONTH_BAN,
        SuggestedSanction(SanctionKind.PERMANENT_BAN),
    ),
}


def suggest_sanction(
    offence: OffenceKind, gravity: Gravity, context: SanctionContext, history: ConductHistory
) -> SuggestedSanction:
    severity = _GRAVITY_BASE[gravity] + history.repetitions(offence)
    ladder = _LADDERS[context]
    return replace(ladder[min(severity, len(ladder) - 1)], severity=severity)
