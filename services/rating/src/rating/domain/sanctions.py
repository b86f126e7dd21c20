"""Sanction kinds and their rules (P-12.3, P-12.4, P-12.5), and the staff decision that imposes one.

A sanction is imposed by a staff decision on one or more reports (P-12.2); what the rules below refuse
cannot be recorded. Its effects on the player are read from `restrictions`.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from ._time import require_aware
from .conduct import Gravity, OffenceKind, Report
from .errors import InvalidSanction


class SanctionContext(StrEnum):
    DURING_TOURNAMENT = "during_tournament"  # P-12.3: found while the tournament runs
    AFTER_TOURNAMENT = "after_tournament"  # P-12.4: found once the tournament is over


class SanctionKind(StrEnum):
    WRITTEN_WARNING = "written_warning"
    TEMPORARY_CHAT_BAN = "temporary_chat_ban"
    PERMANENT_CHAT_BAN = "permanent_chat_ban"
    RANKING_PENALTY = "ranking_penalty"  # in the current tournament (P-12.3 only)
    TOURNAMENT_DISQUALIFICATION = "tournament_disqualification"  # from the current tournament (P-12.3)
    PENDING_TOURNAMENTS_DISQUALIFICATION = "pending_tournaments_disqualification"  # P-12.4
    TEMPORARY_BAN = "temporary_ban"  # from the room and/or the network
    PERMANENT_BAN = "permanent_ban"  # from both


class BanScope(StrEnum):
    """Where a ban applies: the sanctioning concessionaire's room, the whole network, or both."""

    ROOM = "room"
    NETWORK = "network"
    ROOM_AND_NETWORK = "room_and_network"

    def covers(self, sanctioning_room: str, room: str) -> bool:
        """Whether the ban keeps the player out when they come through `room`."""
        return self is not BanScope.ROOM or sanctioning_room == room


_BOTH = frozenset(SanctionContext)
_DURING = frozenset({SanctionContext.DURING_TOURNAMENT})
_AFTER = frozenset({SanctionContext.AFTER_TOURNAMENT})


@dataclass(frozen=True, slots=True)
class SanctionRule:
    """What one kind of sanction is and does.

    contexts: when it may be imposed (P-12.3 lists the kinds during a tournament, P-12.4 after).
    temporary: lasts a duration the decision must give. permanent: lasts until overturned on appeal.
        Neither: a one-off (a warning, an act on one tournament), in force at no time.
    tournament_bound: acts on the named current tournament only.
    blocks_chat: no chat while in force. blocks_access: cannot log in or register while in force (P-12.5).
    removes_registrations: disqualifies from the tournaments in progress and cancels the registrations
        held when imposed; those are refunded unless the decision makes the entries forfeit (P-12.5).
    """

    contexts: frozenset[SanctionContext]
    temporary: bool = False
    permanent: bool = False
    tournament_bound: bool = False
    blocks_chat: bool = False
    blocks_access: bool = False
    removes_registrations: bool = False


SANCTION_RULES: dict[SanctionKind, SanctionRule] = {
    SanctionKind.WRITTEN_WARNING: SanctionRule(_BOTH),
    SanctionKind.TEMPORARY_CHAT_BAN: SanctionRule(_BOTH, temporary=True, blocks_chat=True),
    SanctionKind.PERMANENT_CHAT_BAN: SanctionRule(_BOTH, permanent=True, blocks_chat=True),
    SanctionKind.RANKING_PENALTY: SanctionRule(_DURING, tournament_bound=True),
    SanctionKind.TOURNAMENT_DISQUALIFICATION: SanctionRule(_DURING, tournament_bound=True),
    SanctionKind.PENDING_TOURNAMENTS_DISQUALIFICATION: SanctionRule(_AFTER, removes_registrations=True),
    SanctionKind.TEMPORARY_BAN: SanctionRule(
        _BOTH, temporary=True, blocks_chat=True, blocks_access=True, removes_registrations=True
    ),
    SanctionKind.PERMANENT_BAN: SanctionRule(
        _BOTH, permanent=True, blocks_chat=True, blocks_access=True, removes_registrations=True
    ),
}


@dataclass(frozen=True, slots=True)
class Sanction:
    """A staff decision imposing one sanction; refuses any combination the rules do not allow.

    tournament_id: the current tournament for a decision DURING_TOURNAMENT (required), the tournament
        where the offence happened for one AFTER_TOURNAMENT (optional, for the record).
    room_id: the concessionaire whose room the player came through, where a ROOM ban applies.
    """

    sanction_id: str
    player_id: str
    kind: SanctionKind
    context: SanctionContext
    offence: OffenceKind
    gravity: Gravity
    decided_at: datetime
    decided_by: str
    report_ids: tuple[str, ...]
    room_id: str
    tournament_id: str | None = None
    duration: timedelta | None = None
    ban_scope: BanScope | None = None
    ranking_penalty_positions: int = 0
    entries_forfeit: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        require_aware(self.decided_at, "decided_at")
        rule = self.rule
        if not self.report_ids:
            raise InvalidSanction("a sanction answers at least one report or operator check (P-12.2)")
        if self.context not in rule.contexts:
            raise InvalidSanction(f"{self.kind} cannot be imposed {self.context} (P-12.3, P-12.4)")
        if self.context is SanctionContext.DURING_TOURNAMENT and self.tournament_id is None:
            raise InvalidSanction("a sanction during a tournament names that tournament")
        if rule.temporary != (self.duration is not None):
            raise InvalidSanction(f"{self.kind} {'needs' if rule.temporary else 'takes no'} duration")
        if self.duration is not None and self.duration <= timedelta(0):
            raise InvalidSanction("a duration is positive")
        if (self.kind is SanctionKind.TEMPORARY_BAN) != (self.ban_scope is not None):
            raise InvalidSanction("a temporary ban, and only it, chooses room and/or network")
        if (self.kind is SanctionKind.RANKING_PENALTY) != (self.ranking_penalty_positions > 0):
            raise InvalidSanction("a ranking penalty, and only it, moves the player down some positions")
        if self.entries_forfeit and not rule.removes_registrations:
            raise InvalidSanction(f"{self.kind} removes no registration whose entry could be forfeit")

    @property
    def rule(self) -> SanctionRule:
        return SANCTION_RULES[self.kind]

    @property
    def scope(self) -> BanScope | None:
        """Where access is blocked: the temporary ban's choice, both for a permanent ban (P-12.3)."""
        return BanScope.ROOM_AND_NETWORK if self.kind is SanctionKind.PERMANENT_BAN else self.ban_scope

    @property
    def ends_at(self) -> datetime | None:
        """When a temporary sanction stops; None for permanent and one-off ones."""
        return None if self.duration is None else self.decided_at + self.duration


def impose(
    reports: Sequence[Report],
    *,
    sanction_id: str,
    kind: SanctionKind,
    context: SanctionContext,
    offence: OffenceKind,
    gravity: Gravity,
    decided_at: datetime,
    decided_by: str,
    room_id: str,
    tournament_id: str | None = None,
    duration: timedelta | None = None,
    ban_scope: BanScope | None = None,
    ranking_penalty_positions: int = 0,
    entries_forfeit: bool = False,
    reason: str = "",
) -> Sanction:
    """The staff decision on the reports about one player. The staff classify the offence and its
    gravity themselves (a reporter's claim is not binding) and may follow or ignore `suggest_sanction`."""
    offenders = {report.offender_id for report in reports}
    if len(offenders) != 1:
        raise InvalidSanction("a decision answers reports about exactly one player")
    require_aware(decided_at, "decided_at")
    if any(report.filed_at > decided_at for report in reports):
        raise InvalidSanction("a decision cannot precede the reports it answers")
    return Sanction(
        sanction_id=sanction_id,
        player_id=offenders.pop(),
        kind=kind,
        context=context,
        offence=offence,
        gravity=gravity,
        decided_at=decided_at,
        decided_by=decided_by,
        report_ids=tuple(report.report_id for report in reports),
        room_id=room_id,
        tournament_id=tournament_id,
        duration=duration,
        ban_scope=ban_scope,
        ranking_penalty_positions=ranking_penalty_positions,
        entries_forfeit=entries_forfeit,
        reason=reason,
    )
