"""What an active sanction implies: log-in, registration, chat, tournaments (P-12.3 - P-12.5), and
when a sanction is active (expiry)."""

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from rating.domain import (
    NO_RESTRICTIONS,
    BanScope,
    PlayerRestrictions,
    SanctionContext,
    SanctionKind,
    SanctionRecord,
    TournamentEffects,
    restrictions_at,
    tournament_effects,
)

K = SanctionKind
Records = Callable[..., SanctionRecord]
HOUR = timedelta(hours=1)


def test_p12_3_a_temporary_chat_ban_is_active_from_its_decision_until_its_end(record_of: Records, t0: datetime) -> None:
    ban = record_of(K.TEMPORARY_CHAT_BAN, duration=timedelta(days=2))
    assert not ban.in_force_at(t0 - HOUR)
    assert ban.in_force_at(t0)
    assert ban.in_force_at(t0 + timedelta(days=2) - timedelta(microseconds=1))
    assert not ban.in_force_at(t0 + timedelta(days=2))
    muted = restrictions_at([ban], t0 + HOUR, "room-a")
    assert muted == PlayerRestrictions(
        can_log_in=True, can_register=True, can_chat=False, sanction_ids=("s-temporary_chat_ban",)
    )
    assert restrictions_at([ban], t0 + timedelta(days=3), "room-a") == NO_RESTRICTIONS


def test_p12_3_permanent_sanctions_never_expire(record_of: Records, t0: datetime) -> None:
    far = t0 + timedelta(days=365 * 50)
    assert not restrictions_at([record_of(K.PERMANENT_CHAT_BAN)], far, "room-a").can_chat
    banned = restrictions_at([record_of(K.PERMANENT_BAN)], far, "room-b")
    assert (banned.can_log_in, banned.can_register, banned.can_chat) == (False, False, False)


@pytest.mark.parametrize("kind", [K.WRITTEN_WARNING, K.RANKING_PENALTY, K.TOURNAMENT_DISQUALIFICATION])
def test_p12_3_one_off_sanctions_restrict_nothing_afterwards(
    record_of: Records, t0: datetime, kind: SanctionKind
) -> None:
    record = record_of(kind)
    assert not record.in_force_at(t0)
    assert restrictions_at([record], t0, "room-a") == NO_RESTRICTIONS


def test_p12_5_a_banned_player_cannot_log_in_or_register_or_chat(record_of: Records, t0: datetime) -> None:
    banned = restrictions_at([record_of(K.TEMPORARY_BAN)], t0 + HOUR, "room-a")
    assert (banned.can_log_in, banned.can_register, banned.can_chat) == (False, False, False)
    assert restrictions_at([record_of(K.TEMPORARY_BAN)], t0 + timedelta(days=1), "room-a") == NO_RESTRICTIONS


@pytest.mark.parametrize(
    ("scope", "blocked_in_own_room", "blocked_in_other_room"),
    [(BanScope.ROOM, True, False), (BanScope.NETWORK, True, True), (BanScope.ROOM_AND_NETWORK, True, True)],
)
def test_p12_3_a_room_ban_applies_in_the_sanctioning_room_a_network_ban_everywhere(
    record_of: Records, t0: datetime, scope: BanScope, blocked_in_own_room: bool, blocked_in_other_room: bool
) -> None:
    ban = record_of(K.TEMPORARY_BAN, ban_scope=scope)
    assert restrictions_at([ban], t0, "room-a").can_log_in is not blocked_in_own_room
    assert restrictions_at([ban], t0, "room-b").can_log_in is not blocked_in_other_room


def test_p12_3_several_sanctions_combine(record_of: Records, t0: datetime) -> None:
    records = [record_of(K.PERMANENT_CHAT_BAN), record_of(K.TEMPORARY_BAN, ban_scope=BanScope.ROOM)]
    elsewhere = restrictions_at(records, t0, "room-b")
    assert (elsewhere.can_log_in, elsewhere.can_chat) == (True, False)
    assert elsewhere.sanction_ids == ("s-permanent_chat_ban",)


def effects(records: list[SanctionRecord], t0: datetime, **changes: object) -> TournamentEffects:
    query: dict[str, object] = {
        "tournament_id": "t-live",
        "room_id": "room-a",
        "registered_at": t0 - timedelta(days=1),
        "finished_at": None,
        "at": t0 + HOUR,
    } | changes
    return tournament_effects(records, **query)  # type: ignore[arg-type]


def test_p12_3_disqualification_from_the_current_tournament(record_of: Records, t0: datetime) -> None:
    record = record_of(K.TOURNAMENT_DISQUALIFICATION)
    assert effects([record], t0).disqualified
    assert not effects([record], t0, tournament_id="t-other").disqualified


def test_p12_3_a_ranking_penalty_moves_the_player_down_in_the_current_tournament_only(
    record_of: Records, t0: datetime
) -> None:
    penalties = [
        record_of(K.RANKING_PENALTY),
        record_of(K.RANKING_PENALTY, sanction_id="s2", ranking_penalty_positions=2),
    ]
    here = effects(penalties, t0)
    assert (here.disqualified, here.ranking_penalty_positions) == (False, 5)
    assert effects(penalties, t0, tournament_id="t-other") == TournamentEffects()


def test_p12_4_disqualification_reaches_tournaments_registered_or_running_at_the_decision(
    record_of: Records, t0: datetime
) -> None:
    record = record_of(K.PENDING_TOURNAMENTS_DISQUALIFICATION, context=SanctionContext.AFTER_TOURNAMENT)
    assert effects([record], t0, tournament_id="t-next").disqualified
    assert not effects([record], t0, tournament_id="t-next", registered_at=t0 + HOUR).disqualified
    assert not effects([record], t0, tournament_id="t-done", finished_at=t0 - HOUR).disqualified


def test_p12_5_removed_registrations_are_refunded_unless_the_sanction_makes_them_forfeit(
    record_of: Records, t0: datetime
) -> None:
    refunded = effects([record_of(K.PERMANENT_BAN)], t0, tournament_id="t-next")
    forfeit = effects([record_of(K.PERMANENT_BAN, entries_forfeit=True)], t0, tournament_id="t-next")
    assert (refunded.disqualified, refunded.entry_forfeit) == (True, False)
    assert (forfeit.disqualified, forfeit.entry_forfeit) == (True, True)


def test_p12_5_a_room_ban_removes_only_registrations_made_through_that_room(record_of: Records, t0: datetime) -> None:
    ban = record_of(K.TEMPORARY_BAN, ban_scope=BanScope.ROOM)
    assert effects([ban], t0).disqualified
    assert not effects([ban], t0, room_id="room-b").disqualified


def test_p12_3_chat_bans_and_warnings_leave_tournaments_alone(record_of: Records, t0: datetime) -> None:
    assert effects([record_of(K.WRITTEN_WARNING), record_of(K.PERMANENT_CHAT_BAN)], t0) == TournamentEffects()


def test_p12_5_queries_need_aware_instants(record_of: Records, t0: datetime) -> None:
    with pytest.raises(ValueError):
        restrictions_at([record_of()], t0.replace(tzinfo=None), "room-a")
