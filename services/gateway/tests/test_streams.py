"""Platform events pushed to WebSocket clients, and commands sent as frames on the table socket."""

from typing import Any

import pytest
from gateway.domain.restrictions import RestrictionKind
from gateway.service.fanout import PUBLIC_TABLE_EVENTS, Delivery, RecentIds, deliveries, finished_channel
from gateway.service.restrictions import set_player_restriction
from gateway_test_support import coupon_settled
from platform_kit.bus import Envelope
from platform_kit.clock import FrozenClock
from platform_kit.events import EVENT_TYPES
from platform_kit.events.base import Command, Event
from platform_kit.events.table import (
    ActionRequested,
    ContributeToDeck,
    HoleCardsDealt,
    PlayerAct,
    SeatedPlayer,
    TableClosed,
    TableOpened,
)
from platform_kit.events.totalizator import MatchVoided, StatisticsUpdated
from platform_kit.events.tournament import PlayerRegistered
from platform_kit.testing import eventually
from test_websocket import Platform, connect, make_platform, subscribe

NOW = "2026-03-01T12:00:00+00:00"


def requested(player_id: str) -> ActionRequested:
    return ActionRequested(
        table_id="t-1",
        hand_id="h-1",
        seat=1,
        player_id=player_id,
        deadline=NOW,
        time_bank_seconds=30,
        can_check=False,
        call_amount=20,
        min_raise_to=40,
        max_raise_to=1500,
    )


def test_p1_4_private_table_events_go_to_their_player_only() -> None:
    hole = HoleCardsDealt(table_id="t-1", hand_id="h-1", player_id="p1", seat=1, cards=["As", "Ah"])
    assert deliveries(hole.TYPE, hole.model_dump()) == [Delivery("table:t-1", only_player="p1")]
    assert deliveries("table.action.rejected", {"table_id": "t-1", "player_id": "p2"}) == [
        Delivery("table:t-1", only_player="p2")
    ]
    assert HoleCardsDealt.TYPE not in PUBLIC_TABLE_EVENTS


def test_an_unknown_table_event_is_dropped_not_shown_to_everyone() -> None:
    assert deliveries("table.secret.revealed", {"table_id": "t-1", "player_id": "p1", "cards": ["As"]}) == []


def test_a_table_opening_reaches_the_tournament_and_each_seated_player_in_their_lobby() -> None:
    opened = TableOpened(
        table_id="t-1",
        tournament_id="snd-1",
        shard=0,
        max_seats=2,
        seats=[SeatedPlayer(seat=1, player_id="p1", stack=1500), SeatedPlayer(seat=2, player_id="p2", stack=1500)],
    )
    assert deliveries(opened.TYPE, opened.model_dump()) == [
        Delivery("table:t-1"),
        Delivery("tournament:snd-1"),
        Delivery("lobby", only_player="p1"),
        Delivery("lobby", only_player="p2"),
    ]


def test_lobby_news_and_what_stays_on_its_own_channel() -> None:
    registered = PlayerRegistered(tournament_id="snd-1", player_id="p1", entry="buy_in", registered=1)
    assert deliveries(registered.TYPE, registered.model_dump()) == [Delivery("tournament:snd-1"), Delivery("lobby")]
    for news in ("tournament.tournament.paused", "tournament.tournament.resumed"):  # the card says "Paused"
        assert deliveries(news, {"tournament_id": "snd-1"}) == [Delivery("tournament:snd-1"), Delivery("lobby")]
    stats = StatisticsUpdated(draw_id="2030-23", as_of=NOW, coupons=1, bets=4, pool_usd="0.40", options=[])  # type: ignore[arg-type]
    assert deliveries(stats.TYPE, stats.model_dump(mode="json")) == [Delivery("draw:2030-23")]
    assert deliveries("wallet.operation.posted", {}) == []


@pytest.mark.parametrize(
    "event_type",
    sorted(t for t, m in EVENT_TYPES.items() if t.startswith("totalizator.") and "player_id" in m.model_fields),
)
def test_p11_5_a_totalizator_event_about_a_player_reaches_that_player_alone(event_type: str) -> None:
    """A coupon's winnings are its player's: never shown to a draw's watchers, nor in the lobby. A newer
    totalizator's unknown event naming a player is kept to that player too (fail closed)."""
    assert deliveries(event_type, {"draw_id": "2030-23", "player_id": "p1"}) == [
        Delivery("draw:2030-23", only_player="p1")
    ]
    assert deliveries("totalizator.ticket.printed", {"draw_id": "d", "player_id": "p2"}) == [
        Delivery("draw:d", only_player="p2")
    ]
    assert finished_channel(event_type, {"draw_id": "2030-23", "player_id": "p1"}) is None


def test_a_finished_tables_tournaments_and_draws_channels_are_dropped() -> None:
    closed = TableClosed(table_id="t-1", tournament_id="snd-1", reason="tournament over")
    assert finished_channel(closed.TYPE, closed.model_dump()) == "table:t-1"
    assert finished_channel("tournament.tournament.finished", {"tournament_id": "snd-1"}) == "tournament:snd-1"
    assert finished_channel("totalizator.draw.settled", {"draw_id": "d"}) == "draw:d"
    assert finished_channel(requested("p").TYPE, requested("p").model_dump()) is None


def test_a_message_delivered_twice_is_pushed_once() -> None:
    recent = RecentIds(2)
    assert [recent.first_time(i) for i in ("a", "a", "b", "c", "a")] == [True, False, True, True, True]


def publish_event(platform: Platform, event: Event) -> None:
    """On the bus under the key its producer would use (`private.…` for a private event)."""
    envelope = Envelope.wrap(event, producer="table-engine")
    assert platform.client.portal is not None
    platform.client.portal.call(platform.bus.publish, envelope.outgoing(event.routing_key()))


def next_message(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = ws.receive_json()
    while frame["type"] == "ping":
        frame = ws.receive_json()
    return frame


def test_p1_4_hole_cards_from_the_bus_reach_their_owner_alone_and_once(platform: Platform) -> None:
    alice, bob = platform.player("Alice"), platform.player("Bob")
    alice_id = alice["principal"]["id"]
    with connect(platform, alice["access_token"], "table") as a, connect(platform, bob["access_token"], "table") as b:
        for ws in (a, b):
            ws.receive_json()
            subscribe(ws, "table:t-1")
        hole = HoleCardsDealt(table_id="t-1", hand_id="h-1", player_id=alice_id, seat=1, cards=["As", "Ah"])
        publish_event(platform, hole)
        publish_event(platform, requested(alice_id))
        first = next_message(a)
        assert (first["data"]["event"], first["data"]["payload"]["cards"]) == ("table.hole_cards.dealt", ["As", "Ah"])
        assert next_message(a)["data"]["event"] == "table.action.requested"  # the hole cards came once
        for_bob = next_message(b)
        assert (for_bob["seq"], for_bob["data"]["event"]) == (2, "table.action.requested")
        assert for_bob["data"]["payload"]["min_raise_to"] == 40


def test_p11_5_a_coupons_outcome_reaches_its_player_alone_on_the_draws_channel(platform: Platform) -> None:
    alice, bob = platform.player("Alice"), platform.player("Bob")
    alice_id = alice["principal"]["id"]
    with connect(platform, alice["access_token"]) as a, connect(platform, bob["access_token"]) as b:
        for ws in (a, b):
            ws.receive_json()
            subscribe(ws, "draw:2030-23")
            subscribe(ws, "lobby")
        publish_event(platform, coupon_settled(alice_id))
        voided = MatchVoided(
            draw_id="2030-23", match_no=3, cause="decision", reason="fog", void_matches=1, playable=True
        )
        publish_event(platform, voided)
        first = next_message(a)
        assert (first["channel"], first["data"]["event"]) == ("draw:2030-23", "totalizator.coupon.settled")
        assert first["data"]["payload"]["amount"] == 1_250
        assert next_message(a)["data"]["event"] == "totalizator.match.voided"
        # Bob watches the draw and the lobby: the coupon, published first, would come first on either. His next
        # message is the draw's public news, so Alice's coupon was never sent to him.
        for_bob = next_message(b)
        assert (for_bob["channel"], for_bob["data"]["event"]) == ("draw:2030-23", "totalizator.match.voided")
        assert alice_id not in str(for_bob)


def test_a_seated_player_hears_of_their_new_table_in_the_lobby(platform: Platform) -> None:
    alice, bob = platform.player("Alice"), platform.player("Bob")
    alice_id = alice["principal"]["id"]
    opened = TableOpened(
        table_id="t-9",
        tournament_id="snd-1",
        shard=0,
        max_seats=2,
        seats=[SeatedPlayer(seat=1, player_id=alice_id, stack=1500)],
    )
    with connect(platform, alice["access_token"]) as a, connect(platform, bob["access_token"]) as b:
        for ws in (a, b):
            ws.receive_json()
            subscribe(ws, "lobby")
        publish_event(platform, opened)
        publish_event(platform, PlayerRegistered(tournament_id="snd-2", player_id="x", entry="buy_in", registered=1))
        assert next_message(a)["data"]["payload"]["table_id"] == "t-9"
        assert next_message(b)["data"]["event"] == "tournament.player.registered"  # Bob never saw Alice's seat


def test_a_registration_burst_reaches_a_lobby_socket_coalesced_and_the_tournaments_socket_whole(
    database_url: str, clock: FrozenClock
) -> None:
    """Issue 14: the first registration at once, then the latest when the interval (1 s by default) ends: the
    gateway's timer sends it."""
    with make_platform(database_url, clock) as platform:
        alice = platform.player("Alice")
        with connect(platform, alice["access_token"]) as ws:
            ws.receive_json()
            subscribe(ws, "lobby")
            subscribe(ws, "tournament:snd-1")
            for count in (1, 2, 3):
                event = PlayerRegistered(tournament_id="snd-1", player_id=f"p{count}", entry="buy_in", registered=count)
                publish_event(platform, event)
            heard = [next_message(ws) for _ in range(5)]
    on = {
        name: [m["data"]["payload"]["registered"] for m in heard if m["channel"] == name]
        for name in ("lobby", "tournament:snd-1")
    }
    assert on == {"lobby": [1, 3], "tournament:snd-1": [1, 2, 3]}


def test_actions_and_chat_as_table_socket_frames(platform: Platform) -> None:
    mario = platform.player("Mario")
    with connect(platform, mario["access_token"], "table") as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "table_id": "t-1", "hand_id": "h-1", "action": "call", "ref": "a1"})
        assert next_message(ws) == {"type": "accepted", "ref": "a1", "table_id": "t-1"}
        ws.send_json({"type": "act", "table_id": "t-1", "hand_id": "h-1", "action": "shove", "ref": "a2"})
        refused = next_message(ws)
        assert (refused["type"], refused["code"], refused["ref"]) == ("error", "bad_frame", "a2")
        ws.send_json({"type": "chat", "table_id": "../x", "text": "hi"})
        assert next_message(ws)["code"] == "bad_frame"
        # P-1.3: a random value for the next deck (docs/fair-deal.md), bounded like the REST route's.
        ws.send_json({"type": "contribute", "table_id": "t-1", "value": "f" * 65, "ref": "d1"})
        assert next_message(ws)["code"] == "bad_frame"
        ws.send_json({"type": "contribute", "table_id": "t-1", "value": "f" * 64, "ref": "d2"})
        assert next_message(ws) == {"type": "accepted", "ref": "d2", "table_id": "t-1"}

    async def acts() -> list[dict[str, Any]]:
        return [e.payload for _, e in platform.bus.published if e.type == PlayerAct.TYPE]

    async def contributions() -> list[dict[str, Any]]:
        return [e.payload for _, e in platform.bus.published if e.type == ContributeToDeck.TYPE]

    assert platform.client.portal is not None
    sent = platform.client.portal.call(eventually, acts)
    me = mario["principal"]["id"]
    assert sent == [{"table_id": "t-1", "hand_id": "h-1", "player_id": me, "action": "call", "amount": None}]
    assert platform.client.portal.call(eventually, contributions) == [
        {"table_id": "t-1", "player_id": me, "value": "f" * 64}
    ]


def test_table_commands_travel_on_table_sockets_only(platform: Platform) -> None:
    mario = platform.player("Mario")
    with connect(platform, mario["access_token"], "lobby") as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "table_id": "t-1", "hand_id": "h-1", "action": "fold"})
        assert next_message(ws)["code"] == "not_a_player_table_socket"


def test_p12_4_a_chat_banned_players_chat_frames_are_refused(platform: Platform) -> None:
    mario = platform.player("Mario")
    context = platform.gateway.context

    async def ban() -> None:
        async with context.db.transaction() as session:
            await set_player_restriction(
                session, "s-1", mario["principal"]["id"], RestrictionKind.CHAT_BANNED, None, "spam", context.clock.now()
            )

    assert platform.client.portal is not None
    platform.client.portal.call(ban)
    with connect(platform, mario["access_token"], "table") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "table_id": "t-1", "text": "buy my stuff", "ref": "c1"})
        assert next_message(ws) == {
            "type": "error",
            "code": "chat_banned",
            "message": "You may not chat at the tables for now (a sanction is in force).",
            "ref": "c1",
        }


@pytest.fixture
def platform(database_url: str, clock: FrozenClock) -> Any:
    with make_platform(database_url, clock) as started:
        yield started


@pytest.mark.parametrize(
    "event_type", sorted(t for t, m in EVENT_TYPES.items() if t.startswith("table.") and not issubclass(m, Command))
)
def test_p1_4_a_table_event_declared_private_reaches_its_player_alone_and_no_other_is_addressed(
    event_type: str,
) -> None:
    """The fan-out follows the contract's own declaration (`Event.PRIVATE`), not a list of its own."""
    payload = {"table_id": "t-1", "player_id": "p1", "tournament_id": None, "seats": [], "player": {"player_id": "p1"}}
    found = deliveries(event_type, payload)
    if EVENT_TYPES[event_type].PRIVATE:
        assert found == [Delivery("table:t-1", only_player="p1")]
    else:
        assert Delivery("table:t-1") in found
