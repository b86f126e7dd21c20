"""The WebSocket hub without sockets: ordering, replay on resume, private messages (P-1.4), separate lobby and
table sockets (P-13.4), table presence callbacks (P-13.2), slow clients."""

import itertools
import json
from typing import Any

import pytest
from gateway.domain.channels import SocketKind
from gateway.domain.roles import Principal, Role
from gateway.service.hub import CloseCode, Connection, Hub, HubRefusal

ALICE = Principal(Role.PLAYER, "alice", "c1", "Alice")
BOB = Principal(Role.PLAYER, "bob", "c1", "Bob")
ADMIN = Principal(Role.ADMIN, "root")


def new_hub(**options: Any) -> Hub:
    epochs = (f"epoch-{n}" for n in itertools.count(1))
    return Hub(
        replay_capacity=options.get("replay_capacity", 100),
        send_queue_size=options.get("send_queue_size", 100),
        new_epoch=lambda: next(epochs),
    )


def drain(connection: Connection) -> list[dict[str, Any]]:
    frames = []
    while not connection.pending.empty():
        frames.append(json.loads(connection.pending.get_nowait()))
    return frames


def messages(connection: Connection) -> list[tuple[int, Any]]:
    return [(f["seq"], f["data"]) for f in drain(connection) if f["type"] == "message"]


async def test_subscribers_receive_messages_in_order_with_sequence_numbers() -> None:
    hub = new_hub()
    connection = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(connection, "lobby")
    [ack] = drain(connection)
    assert ack == {"type": "subscribed", "channel": "lobby", "epoch": "epoch-1", "seq": 0, "resync": None}
    for n in range(1, 4):
        assert hub.publish("lobby", {"n": n}) == n
    hub.publish("tournament:9", {"other": True})  # another channel
    assert messages(connection) == [(1, {"n": 1}), (2, {"n": 2}), (3, {"n": 3})]


async def test_a_reconnecting_client_gets_exactly_what_it_missed() -> None:
    hub = new_hub()
    first = hub.connect(ALICE, SocketKind.TABLE)
    await hub.subscribe(first, "table:7")
    epoch = drain(first)[0]["epoch"]
    hub.publish("table:7", {"n": 1})
    assert messages(first) == [(1, {"n": 1})]
    await hub.disconnect(first)
    for n in (2, 3):
        hub.publish("table:7", {"n": n})
    again = hub.connect(ALICE, SocketKind.TABLE)
    await hub.subscribe(again, "table:7", last_seq=1, epoch=epoch)
    hub.publish("table:7", {"n": 4})
    frames = drain(again)
    assert frames[0]["type"] == "subscribed" and frames[0]["resync"] is None and frames[0]["seq"] == 3
    assert [(f["seq"], f["data"]["n"]) for f in frames[1:]] == [(2, 2), (3, 3), (4, 4)]


async def test_a_client_too_far_behind_or_from_another_epoch_is_told_to_resync() -> None:
    hub = new_hub(replay_capacity=2)
    for n in range(5):
        hub.publish("lobby", {"n": n})
    late = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(late, "lobby", last_seq=1, epoch="epoch-1")
    [ack] = drain(late)
    assert (ack["resync"], ack["seq"]) == ("too_far_behind", 5)
    stranger = hub.connect(BOB, SocketKind.LOBBY)
    await hub.subscribe(stranger, "lobby", last_seq=5, epoch="from-another-gateway")
    assert drain(stranger)[0]["resync"] == "epoch_changed"
    hub.forget("lobby")
    returning = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(returning, "lobby", last_seq=5, epoch="epoch-1")
    assert drain(returning)[0]["resync"] == "epoch_changed"


async def test_p1_4_private_messages_reach_only_their_players_connections() -> None:
    hub = new_hub()
    alice_phone, alice_laptop = hub.connect(ALICE, SocketKind.TABLE), hub.connect(ALICE, SocketKind.TABLE)
    bob, admin = hub.connect(BOB, SocketKind.TABLE), hub.connect(ADMIN, SocketKind.TABLE)
    for connection in (alice_phone, alice_laptop, bob, admin):
        await hub.subscribe(connection, "table:1")
        drain(connection)
    hub.publish("table:1", {"hole_cards": ["As", "Ah"]}, only_player="alice")
    hub.publish("table:1", {"hole_cards": ["7c", "2d"]}, only_player="bob")
    hub.publish("table:1", {"board": ["Kd", "Qs", "Jh"]})
    assert (
        messages(alice_phone)
        == messages(alice_laptop)
        == [(1, {"hole_cards": ["As", "Ah"]}), (3, {"board": ["Kd", "Qs", "Jh"]})]
    )
    assert messages(bob) == [(2, {"hole_cards": ["7c", "2d"]}), (3, {"board": ["Kd", "Qs", "Jh"]})]
    assert messages(admin) == [(3, {"board": ["Kd", "Qs", "Jh"]})]  # staff never see hole cards


async def test_p1_4_a_private_message_reaches_only_that_players_connections_following_its_channel() -> None:
    hub = new_hub()
    lobby_follower, table_only = hub.connect(ALICE, SocketKind.LOBBY), hub.connect(ALICE, SocketKind.TABLE)
    bob = hub.connect(BOB, SocketKind.LOBBY)
    for connection in (lobby_follower, bob):
        await hub.subscribe(connection, "lobby")
        drain(connection)
    hub.publish("lobby", {"seat": "alice's"}, only_player="alice")
    assert messages(lobby_follower) == [(1, {"seat": "alice's"})]
    assert messages(table_only) == messages(bob) == []  # another channel; another player
    await hub.disconnect(lobby_follower)
    hub.publish("lobby", {"seat": "alice's again"}, only_player="alice")
    assert messages(lobby_follower) == messages(table_only) == []
    again = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(again, "lobby", history=True)
    assert messages(again) == [(1, {"seat": "alice's"}), (2, {"seat": "alice's again"})]


async def test_p1_4_a_late_arrival_asks_for_the_tables_history_and_sees_only_its_own_cards() -> None:
    hub = new_hub(replay_capacity=3)
    hub.publish("table:7", {"hand": "started"})
    hub.publish("table:7", {"cards": "Bob's"}, only_player="bob")
    hub.publish("table:7", {"cards": "Alice's"}, only_player="alice")
    hub.publish("table:7", {"turn": "alice"})
    late = hub.connect(ALICE, SocketKind.TABLE)
    await hub.subscribe(late, "table:7", history=True)
    # What the buffer still keeps (3 messages here), without Bob's cards; then the live stream.
    hub.publish("table:7", {"n": 5})
    assert messages(late) == [(3, {"cards": "Alice's"}), (4, {"turn": "alice"}), (5, {"n": 5})]
    plain = hub.connect(BOB, SocketKind.TABLE)
    await hub.subscribe(plain, "table:7")
    assert messages(plain) == []


async def test_p13_4_table_channels_only_on_table_sockets_and_lobby_channels_only_on_lobby_sockets() -> None:
    hub = new_hub()
    lobby, table = hub.connect(ALICE, SocketKind.LOBBY), hub.connect(ALICE, SocketKind.TABLE)
    with pytest.raises(HubRefusal) as refused:
        await hub.subscribe(lobby, "table:1")
    assert refused.value.code == "wrong_socket"
    for channel in ("lobby", "tournament:3", "draw:5"):
        with pytest.raises(HubRefusal):
            await hub.subscribe(table, channel)
    with pytest.raises(HubRefusal) as unknown:
        await hub.subscribe(lobby, "casino")
    assert unknown.value.code == "unknown_channel"


async def test_p13_2_table_presence_reports_the_last_connection_leaving_and_the_return() -> None:
    hub = new_hub()
    events: list[tuple[str, str, str]] = []

    async def disconnected(player_id: str, table_id: str) -> None:
        events.append(("away", player_id, table_id))

    def reconnected(player_id: str, table_id: str) -> None:  # callbacks may be plain functions too
        events.append(("back", player_id, table_id))

    hub.on_table_disconnect = disconnected
    hub.on_table_reconnect = reconnected
    phone, laptop = hub.connect(ALICE, SocketKind.TABLE), hub.connect(ALICE, SocketKind.TABLE)
    lobby = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(phone, "table:1")
    await hub.subscribe(laptop, "table:1")
    await hub.subscribe(lobby, "lobby")
    assert events == []  # a first join is not a return
    await hub.disconnect(lobby)  # P-13.4: losing the lobby leaves the tables alone
    await hub.disconnect(phone)  # still at the table on the laptop
    assert events == []
    await hub.disconnect(laptop)
    assert events == [("away", "alice", "1")]
    back = hub.connect(ALICE, SocketKind.TABLE)
    await hub.subscribe(back, "table:1")
    assert events == [("away", "alice", "1"), ("back", "alice", "1")]


async def test_a_failing_presence_callback_does_not_break_the_hub() -> None:
    hub = new_hub()

    def broken(player_id: str, table_id: str) -> None:
        raise RuntimeError("table engine unreachable")

    hub.on_table_disconnect = broken
    connection = hub.connect(ALICE, SocketKind.TABLE)
    await hub.subscribe(connection, "table:1")
    await hub.disconnect(connection)
    assert hub.connection_count == 0


async def test_a_client_that_does_not_keep_up_is_disconnected_to_resume_later() -> None:
    hub = new_hub(send_queue_size=3)
    connection = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(connection, "lobby")  # the ack takes one place
    for n in range(3):
        hub.publish("lobby", {"n": n})
    assert connection.closing.is_set()
    assert connection.close_code == CloseCode.TOO_SLOW


async def test_kicking_a_banned_player_closes_all_their_connections() -> None:
    hub = new_hub()
    mine = [hub.connect(ALICE, SocketKind.LOBBY), hub.connect(ALICE, SocketKind.TABLE)]
    other = hub.connect(BOB, SocketKind.LOBBY)
    assert hub.kick_player("alice", CloseCode.FORBIDDEN, "player_banned") == 2
    assert all(c.closing.is_set() and c.close_code == CloseCode.FORBIDDEN for c in mine)
    assert not other.closing.is_set()


async def test_a_channel_authorizer_can_refuse_a_subscription() -> None:
    hub = new_hub()
    hub.authorize = lambda principal, channel: channel.entity_id != "private-table"
    connection = hub.connect(ALICE, SocketKind.TABLE)
    with pytest.raises(HubRefusal) as refused:
        await hub.subscribe(connection, "table:private-table")
    assert refused.value.code == "forbidden_channel"
