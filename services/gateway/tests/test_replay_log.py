"""A channel's numbered log and replay buffer (the WebSocket resume rule)."""

from gateway.domain.replay import ChannelLog, Resume, Resync, ResyncReason
from hypothesis import given
from hypothesis import strategies as st


def test_resume_returns_what_was_missed_in_order() -> None:
    log = ChannelLog("e1", capacity=10)
    for n in range(1, 6):
        log.append({"n": n})
    resumed = log.resume("e1", 2, None)
    assert isinstance(resumed, Resume)
    assert [m.seq for m in resumed.missed] == [3, 4, 5]
    assert log.resume("e1", 5, None) == Resume(())


def test_a_client_too_far_behind_or_from_another_epoch_must_resync() -> None:
    log = ChannelLog("e1", capacity=3)
    for n in range(1, 8):
        log.append({"n": n})
    # The buffer holds 5, 6, 7: a client at 4 misses nothing kept, one at 3 missed message 4 for good.
    assert isinstance(log.resume("e1", 4, None), Resume)
    assert log.resume("e1", 3, None) == Resync(ResyncReason.TOO_FAR_BEHIND)
    assert log.resume("other", 7, None) == Resync(ResyncReason.EPOCH_CHANGED)
    assert log.resume("e1", 8, None) == Resync(ResyncReason.AHEAD_OF_LOG)


def test_p1_4_private_messages_are_replayed_only_to_their_player() -> None:
    log = ChannelLog("e1", capacity=10)
    log.append({"public": 1})
    log.append({"cards": ["As", "Kd"]}, only_player="alice")
    log.append({"cards": ["2c", "2d"]}, only_player="bob")
    log.append({"public": 2})
    alice = log.resume("e1", 0, "alice")
    staff = log.resume("e1", 0, None)
    assert isinstance(alice, Resume) and isinstance(staff, Resume)
    assert [m.seq for m in alice.missed] == [1, 2, 4]
    assert [m.seq for m in staff.missed] == [1, 4]


@given(
    capacity=st.integers(1, 20),
    owners=st.lists(st.sampled_from([None, "alice", "bob"]), max_size=60),
    last_seq=st.integers(0, 60),
)
def test_resume_is_exactly_the_visible_messages_after_the_position_or_a_resync(
    capacity: int, owners: list[str | None], last_seq: int
) -> None:
    log = ChannelLog("e", capacity)
    for index, owner in enumerate(owners, start=1):
        log.append({"n": index}, only_player=owner)
    outcome = log.resume("e", last_seq, "alice")
    head = len(owners)
    if last_seq > head:
        assert outcome == Resync(ResyncReason.AHEAD_OF_LOG)
    elif head - last_seq > capacity:
        assert outcome == Resync(ResyncReason.TOO_FAR_BEHIND)
    else:
        assert isinstance(outcome, Resume)
        expected = [n for n, owner in enumerate(owners, start=1) if n > last_seq and owner in (None, "alice")]
        assert [m.seq for m in outcome.missed] == expected
