"""Pure rules: who sees which players, token buckets, refresh-token verdicts, restrictions and channel names."""

from datetime import UTC, datetime, timedelta

import pytest
from gateway.domain.channels import Channel, ChannelKind, SocketKind
from gateway.domain.rate_limit import BucketPolicy, TokenBucket
from gateway.domain.refresh import RefreshTokenState, RefreshVerdict, judge
from gateway.domain.restrictions import Restriction, RestrictionKind, standing_at
from gateway.domain.roles import Principal, Role
from hypothesis import given
from hypothesis import strategies as st

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_a_principal_sees_only_the_players_it_manages() -> None:
    partner = Principal(Role.PARTNER, "key-a", "conc-a")
    operator = Principal(Role.OPERATOR, "op-a", "conc-a")
    admin = Principal(Role.ADMIN, "root")
    player = Principal(Role.PLAYER, "p1", "conc-a", "Mario")
    for caller in (partner, operator):
        assert caller.may_see_player("p1", "conc-a")
        assert not caller.may_see_player("p2", "conc-b")
    assert admin.may_see_player("p2", "conc-b")
    assert player.may_see_player("p1", "conc-a")
    assert not player.may_see_player("p3", "conc-a")  # a fellow player of the same concessionaire
    assert not player.manages("conc-a")


def test_principals_are_tied_to_a_concessionaire_except_administrators() -> None:
    with pytest.raises(ValueError):
        Principal(Role.PARTNER, "key")
    with pytest.raises(ValueError):
        Principal(Role.ADMIN, "root", "conc-a")


@given(
    rate=st.integers(1, 50),
    burst=st.integers(1, 30),
    gaps=st.lists(st.floats(0, 2, allow_nan=False), min_size=1, max_size=200),
)
def test_a_bucket_never_lets_through_more_than_burst_plus_rate_times_elapsed(
    rate: int, burst: int, gaps: list[float]
) -> None:
    bucket = TokenBucket.full(BucketPolicy(float(rate), burst), 0.0)
    now, allowed = 0.0, 0
    for gap in gaps:
        now += gap
        if bucket.take(now) == 0:
            allowed += 1
        assert allowed <= burst + rate * now + 1e-9


@given(rate=st.floats(0.1, 20), burst=st.integers(1, 10))
def test_waiting_retry_after_seconds_is_enough(rate: float, burst: int) -> None:
    bucket = TokenBucket.full(BucketPolicy(rate, burst), 0.0)
    for _ in range(burst):
        assert bucket.take(0.0) == 0
    wait = bucket.take(0.0)
    assert wait >= 1
    assert bucket.take(float(wait)) == 0


def test_refresh_verdicts() -> None:
    fresh = RefreshTokenState(NOW + timedelta(days=1), None, None)
    assert judge(fresh, NOW) is RefreshVerdict.VALID
    assert judge(fresh, NOW + timedelta(days=1)) is RefreshVerdict.EXPIRED
    assert judge(RefreshTokenState(fresh.expires_at, None, NOW), NOW) is RefreshVerdict.REVOKED
    # A used token is a reuse even after its family was revoked or it expired: the signal that matters.
    assert judge(RefreshTokenState(fresh.expires_at, NOW, NOW), NOW + timedelta(days=2)) is RefreshVerdict.REUSED


def test_p12_5_a_ban_in_force_stops_log_in_and_chat_a_chat_ban_only_chat() -> None:
    ban = Restriction(RestrictionKind.BANNED, NOW + timedelta(days=7), "insults")
    chat_ban = Restriction(RestrictionKind.CHAT_BANNED, None, "spam")
    assert standing_at([], NOW).may_log_in
    banned = standing_at([ban], NOW)
    assert (banned.may_log_in, banned.may_register, banned.may_chat, banned.ban) == (False, False, False, ban)
    assert standing_at([ban], NOW + timedelta(days=7)).may_log_in  # expired
    muted = standing_at([chat_ban], NOW)
    assert muted.may_log_in and not muted.may_chat


def test_p12_5_the_longest_ban_is_the_one_reported() -> None:
    short = Restriction(RestrictionKind.BANNED, NOW + timedelta(days=1), "first")
    permanent = Restriction(RestrictionKind.BANNED, None, "second")
    assert standing_at([short, permanent], NOW).ban == permanent


def test_p13_4_table_channels_travel_on_table_sockets_everything_else_on_lobby_sockets() -> None:
    assert Channel.parse("table:42").socket is SocketKind.TABLE
    for name in ("lobby", "tournament:7", "draw:2026-10"):
        assert Channel.parse(name).socket is SocketKind.LOBBY
    assert Channel.parse("table:42") == Channel(ChannelKind.TABLE, "42")
    assert Channel.parse("table:42").name == "table:42"
    assert Channel.parse("table:t-5441eccf8dd301a6/1/1").entity_id == "t-5441eccf8dd301a6/1/1"  # the director's ids
    for bad in (
        "casino",
        "lobby:1",
        "table:",
        "table:a b",
        "table:/x",
        "table:a/../b",
        "table:a:b",
        "table:" + "x" * 65,
    ):
        with pytest.raises(ValueError):
            Channel.parse(bad)
