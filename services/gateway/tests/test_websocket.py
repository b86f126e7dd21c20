"""`/api/v1/ws` end to end through real WebSocket sessions (Starlette's test client)."""

import functools
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from gateway.api.v1 import ws as ws_api
from gateway.app import create_app
from gateway.bootstrap import Services
from gateway_test_support import PASSWORD, fast_settings
from platform_kit.bus import InMemoryBus
from platform_kit.clock import FrozenClock
from platform_kit.events.table import PlayerConnection, command_routing_key
from platform_kit.testing import eventually
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.websockets import WebSocketDisconnect
from test_ban_after_commit import ban

with warnings.catch_warnings():
    # Starlette would rather have the httpx2 package; httpx works the same for these tests.
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from starlette.testclient import TestClient, WebSocketTestSession


class Platform:
    def __init__(self, client: TestClient, app: FastAPI, bus: InMemoryBus) -> None:
        self.client = client
        self.app = app
        self.bus = bus

    @property
    def gateway(self) -> Services:
        services: Services = self.app.state.services
        return services

    def player(self, nickname: str) -> dict[str, Any]:
        answer = self.client.post(
            "/api/v1/auth/signup",
            json={
                "concessionaire": "demo",
                "nickname": nickname,
                "email": f"{nickname.lower()}@example.com",
                "date_of_birth": "1990-01-01",
                "password": PASSWORD,
            },
        )
        assert answer.status_code == 201, answer.text
        session: dict[str, Any] = answer.json()
        return session

    def publish(self, channel: str, data: dict[str, Any], only_player: str | None = None) -> int:
        """On the app's event loop, as the bus consumers will."""
        assert self.client.portal is not None
        seq: int = self.client.portal.call(
            functools.partial(self.gateway.hub.publish, channel, data, only_player=only_player)
        )
        return seq


@contextmanager
def make_platform(database_url: str, clock: FrozenClock, **settings: Any) -> Iterator[Platform]:
    bus = InMemoryBus()
    app = create_app(fast_settings(database_url, migrate_on_start=False, **settings), bus=bus, clock=clock)
    with TestClient(app) as client:
        yield Platform(client, app, bus)


@pytest.fixture
def platform(database_url: str, clock: FrozenClock) -> Iterator[Platform]:
    with make_platform(database_url, clock) as started:
        yield started


def connect(platform: Platform, token: str, socket: str = "lobby") -> WebSocketTestSession:
    return platform.client.websocket_connect(f"/api/v1/ws?socket={socket}&token={token}")


def subscribe(ws: WebSocketTestSession, channel: str, **position: Any) -> dict[str, Any]:
    ws.send_json({"type": "subscribe", "channel": channel, **position})
    ack: dict[str, Any] = ws.receive_json()
    assert ack["type"] == "subscribed", ack
    return ack


def close_code(ws: WebSocketTestSession) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_authenticate_by_first_message_and_receive_in_order(platform: Platform) -> None:
    mario = platform.player("Mario")
    with platform.client.websocket_connect("/api/v1/ws") as ws:
        ws.send_json({"type": "auth", "token": mario["access_token"]})
        welcome = ws.receive_json()
        assert (welcome["type"], welcome["socket"], welcome["principal"]["nickname"]) == ("welcome", "lobby", "Mario")
        subscribe(ws, "lobby")
        for n in range(1, 6):
            platform.publish("lobby", {"n": n})
        received = [ws.receive_json() for _ in range(5)]
        assert [(m["seq"], m["data"]["n"]) for m in received] == [(n, n) for n in range(1, 6)]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_connections_without_a_valid_token_are_closed_4401(platform: Platform) -> None:
    with platform.client.websocket_connect("/api/v1/ws?token=not-a-token") as ws:
        assert close_code(ws) == 4401
    with platform.client.websocket_connect("/api/v1/ws") as ws:
        ws.send_json({"type": "subscribe", "channel": "lobby"})  # not an auth message
        assert close_code(ws) == 4401


def test_reconnect_with_last_seq_resumes_without_missing_a_message(platform: Platform) -> None:
    mario = platform.player("Mario")
    with connect(platform, mario["access_token"], "table") as ws:
        ws.receive_json()  # welcome
        epoch = subscribe(ws, "table:42")["epoch"]
        platform.publish("table:42", {"n": 1})
        platform.publish("table:42", {"n": 2})
        last_seq = [ws.receive_json()["seq"] for _ in range(2)][-1]
    for n in (3, 4, 5):  # while the player is away
        platform.publish("table:42", {"n": n})
    with connect(platform, mario["access_token"], "table") as ws:
        ws.receive_json()
        ack = subscribe(ws, "table:42", epoch=epoch, last_seq=last_seq)
        assert (ack["resync"], ack["seq"]) == (None, 5)
        platform.publish("table:42", {"n": 6})
        assert [ws.receive_json()["data"]["n"] for _ in range(4)] == [3, 4, 5, 6]


def test_a_client_too_far_behind_is_told_to_resync(database_url: str, clock: FrozenClock) -> None:
    with make_platform(database_url, clock, ws_replay_buffer=2) as platform:
        mario = platform.player("Mario")
        with connect(platform, mario["access_token"]) as ws:
            ws.receive_json()
            epoch = subscribe(ws, "lobby")["epoch"]
        for n in range(5):
            platform.publish("lobby", {"n": n})
        with connect(platform, mario["access_token"]) as ws:
            ws.receive_json()
            ack = subscribe(ws, "lobby", epoch=epoch, last_seq=0)
            assert (ack["resync"], ack["seq"]) == ("too_far_behind", 5)


def test_p1_4_a_private_message_reaches_only_its_player(platform: Platform) -> None:
    alice, bob = platform.player("Alice"), platform.player("Bob")
    with connect(platform, alice["access_token"], "table") as a, connect(platform, bob["access_token"], "table") as b:
        for ws in (a, b):
            ws.receive_json()
            subscribe(ws, "table:1")
        platform.publish("table:1", {"hole_cards": ["As", "Ah"]}, only_player=alice["principal"]["id"])
        platform.publish("table:1", {"board": ["2c", "7d", "Ks"]})
        assert a.receive_json()["data"] == {"hole_cards": ["As", "Ah"]}
        assert a.receive_json()["data"] == {"board": ["2c", "7d", "Ks"]}
        first_for_bob = b.receive_json()
        assert (first_for_bob["seq"], first_for_bob["data"]) == (2, {"board": ["2c", "7d", "Ks"]})


def test_p13_4_lobby_and_table_are_separate_sockets(platform: Platform) -> None:
    mario = platform.player("Mario")
    player_id = mario["principal"]["id"]
    events: list[tuple[str, str, str]] = []
    platform.gateway.hub.on_table_disconnect = lambda p, t: events.append(("away", p, t))  # type: ignore[func-returns-value]
    platform.gateway.hub.on_table_reconnect = lambda p, t: events.append(("back", p, t))  # type: ignore[func-returns-value]
    with connect(platform, mario["access_token"], "table") as table:
        table.receive_json()
        subscribe(table, "table:5")
        with connect(platform, mario["access_token"], "lobby") as lobby:
            lobby.receive_json()
            lobby.send_json({"type": "subscribe", "channel": "table:5"})
            refused = lobby.receive_json()
            assert (refused["type"], refused["code"]) == ("error", "wrong_socket")
            subscribe(lobby, "lobby")
        # The lobby socket is gone; the table socket still streams and nobody was told the player left.
        platform.publish("table:5", {"still": "here"})
        assert table.receive_json()["data"] == {"still": "here"}
        assert events == []
    assert events == [("away", player_id, "5")]
    with connect(platform, mario["access_token"], "table") as table:
        table.receive_json()
        subscribe(table, "table:5")
    assert events[1] == ("back", player_id, "5")


def test_a_silent_client_is_closed_after_the_heartbeat_timeout(database_url: str, clock: FrozenClock) -> None:
    with make_platform(database_url, clock, ws_heartbeat_seconds=0.05, ws_heartbeat_timeout_seconds=0.2) as platform:
        mario = platform.player("Mario")
        with connect(platform, mario["access_token"]) as ws:
            ws.receive_json()
            assert ws.receive_json() == {"type": "ping"}
            assert close_code(ws) == 4408


def test_a_client_answering_pings_stays_connected(database_url: str, clock: FrozenClock) -> None:
    with make_platform(database_url, clock, ws_heartbeat_seconds=0.05, ws_heartbeat_timeout_seconds=0.2) as platform:
        mario = platform.player("Mario")
        with connect(platform, mario["access_token"]) as ws:
            ws.receive_json()
            subscribe(ws, "lobby")
            for _ in range(8):  # about 0.4 s: twice the timeout
                assert ws.receive_json() == {"type": "ping"}
                ws.send_json({"type": "pong"})
            platform.publish("lobby", {"alive": True})
            frame = ws.receive_json()
            while frame["type"] == "ping":
                frame = ws.receive_json()
            assert frame["data"] == {"alive": True}


def test_p12_5_a_ban_closes_the_players_sockets_and_keeps_them_out(platform: Platform) -> None:
    cheater = platform.player("Cheater")
    with connect(platform, cheater["access_token"]) as ws:
        ws.receive_json()
        assert platform.client.portal is not None
        platform.client.portal.call(platform.bus.publish, ban(cheater["principal"]["id"]).outgoing())
        assert close_code(ws) == 4403
    with connect(platform, cheater["access_token"]) as ws:
        assert close_code(ws) == 4403


def test_a_connection_finding_the_database_busy_is_told_to_come_back_not_failed(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of lobby sockets connecting in a registration rush may find every database connection busy for
    the pool's whole timeout: overload, answered with 1013 (try again later), not an error in the handshake."""
    mario = platform.player("Mario")

    async def busy(*_: Any) -> None:
        raise PoolTimeout("every connection busy")

    monkeypatch.setattr(ws_api, "standing_of", busy)
    with connect(platform, mario["access_token"]) as ws:
        assert close_code(ws) == 1013


def test_p13_2_the_table_engine_is_told_when_a_players_table_connection_drops_and_returns(
    database_url: str, clock: FrozenClock
) -> None:
    with make_platform(database_url, clock, table_engine_shards=4) as platform:
        mario = platform.player("Mario")
        with connect(platform, mario["access_token"], "table") as ws:
            ws.receive_json()
            subscribe(ws, "table:77")
        with connect(platform, mario["access_token"], "table") as ws:
            ws.receive_json()
            subscribe(ws, "table:77")

        async def commands() -> list[tuple[str, dict[str, Any]]]:
            sent = [(key, e.payload) for key, e in platform.bus.published if e.type == PlayerConnection.TYPE]
            return sent if len(sent) == 3 else []

        assert platform.client.portal is not None
        sent = platform.client.portal.call(eventually, commands)
        expected_key = command_routing_key(PlayerConnection(table_id="77", player_id="x", connected=True), "77", 4)
        player_id = mario["principal"]["id"]
        assert sent == [
            (expected_key, {"table_id": "77", "player_id": player_id, "connected": False}),
            (expected_key, {"table_id": "77", "player_id": player_id, "connected": True}),
            (expected_key, {"table_id": "77", "player_id": player_id, "connected": False}),
        ]
