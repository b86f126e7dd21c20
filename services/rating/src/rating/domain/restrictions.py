"""What a player's sanctions imply (P-12.3, P-12.4, P-12.5), as questions other services ask:
may the player log in, register, chat — and what happens to them in a given tournament."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from ._time import require_aware
from .appeals import SanctionRecord
from .sanctions import SanctionKind


@dataclass(frozen=True, slots=True)
class PlayerRestrictions:
    """The player's standing at one instant, coming through one concessionaire's room."""

    can_log_in: bool = True
    can_register: bool = True
    can_chat: bool = True
    sanction_ids: tuple[str, ...] = ()  # the sanctions in force behind the restrictions


NO_RESTRICTIONS = PlayerRestrictions()


def restrictions_at(records: Iterable[SanctionRecord], at: datetime, room_id: str) -> PlayerRestrictions:
    """P-12.5: a ban in force (covering this room) stops log-in, registration and chat; a chat ban,
    which applies in every room, stops chat."""
    require_aware(at, "at")
    can_access = can_chat = True
    behind: list[str] = []
    for record in records:
        if not record.in_force_at(at):
            continue
        sanction = record.sanction
        if sanction.rule.blocks_access:
            # A ban keeps the player out of the rooms it covers, chat included.
            scope = sanction.scope
            blocks_access = blocks_chat = scope is not None and scope.covers(sanction.room_id, room_id)
        else:
            blocks_access, blocks_chat = False, sanction.rule.blocks_chat
        if blocks_access or blocks_chat:
            behind.append(sanction.sanction_id)
        can_access = can_access and not blocks_access
        can_chat = can_chat and not blocks_chat
    return PlayerRestrictions(can_access, can_access, can_chat, tuple(behind))


@dataclass(frozen=True, slots=True)
class TournamentEffects:
    """What the sanctions do to the player in one tournament.

    disqualified: out of it — chips leave play and the player ranks below every player not disqualified
        (P-12.5); a registration for a tournament not yet started is cancelled instead, and refunded
        unless `entry_forfeit`.
    ranking_penalty_positions: positions the player's final ranking moves down (P-12.3), summed.
    """

    disqualified: bool = False
    entry_forfeit: bool = False
    ranking_penalty_positions: int = 0
    sanction_ids: tuple[str, ...] = ()


def tournament_effects(
    records: Iterable[SanctionRecord],
    tournament_id: str,
    *,
    room_id: str,
    registered_at: datetime,
    finished_at: datetime | None,
    at: datetime,
) -> TournamentEffects:
    """Effects at `at` on the player's entry to `tournament_id`, registered through `room_id` at
    `registered_at`; `finished_at` is None while the tournament has not finished.

    A sanction that removes registrations (P-12.4 disqualification, bans) reaches the tournaments the
    player was registered for when it was decided and that had not finished by then."""
    require_aware(at, "at")
    disqualified = forfeit = False
    penalty = 0
    behind: list[str] = []
    for record in records:
        if not record.stands_at(at):
            continue
        sanction = record.sanction
        named_here = sanction.rule.tournament_bound and sanction.tournament_id == tournament_id
        removed = (
            sanction.rule.removes_registrations
            and registered_at <= sanction.decided_at
            and (finished_at is None or sanction.decided_at < finished_at)
            and (sanction.scope is None or sanction.scope.covers(sanction.room_id, room_id))
        )
        if named_here and sanction.kind is SanctionKind.RANKING_PENALTY:
            penalty += sanction.ranking_penalty_positions
        elif named_here or removed:
            disqualified = True
            forfeit = forfeit or sanction.entries_forfeit
        else:
            continue
        behind.append(sanction.sanction_id)
    return TournamentEffects(disqualified, forfeit, penalty, tuple(behind))
