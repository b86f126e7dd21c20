"""P-1.4: a table event only one player may see is declared once, by its contract class (`PrivateTableEvent`).
The table engine publishes by that declaration (`Event.routing_key`) and the gateway's fan-out routes by it, so
a private event added to the contracts is private on the bus and on every socket with no other list to update."""

from typing import Any

import pytest
from gateway.domain.channels import SocketKind
from gateway.domain.roles import Principal, Role
from gateway.service.fanout import PATTERNS, PRIVATE_TABLE_EVENTS, PUBLIC_TABLE_EVENTS, StreamFanout
from gateway.service.lobby_news import LobbyNews
from platform_kit.bus import Envelope, topic_matches
from platform_kit.events import EVENT_TYPES, Command, Event
from platform_kit.events.table import PrivateTableEvent
from test_hub import drain, new_hub

NOW = "2026-03-01T12:00:00+00:00"
RECIPIENT = Principal(Role.PLAYER, "alice", "c1", "Alice")
OPPONENT = Principal(Role.PLAYER, "bob", "c1", "Bob")
STAFF = Principal(Role.ADMIN, "root")

CONTRACTS = {t: m for t, m in EVENT_TYPES.items() if m.__module__.startswith("platform_kit.events.")}
PRIVATE_CONTRACTS = sorted(t for t, m in CONTRACTS.items() if m.PRIVATE)
TABLE_EVENTS = sorted(t for t, m in CONTRACTS.items() if t.startswith("table.") and not issubclass(m, Command))


def test_p1_4_the_contracts_declare_private_events_and_all_of_them_by_the_one_base_class() -> None:
    assert PRIVATE_CONTRACTS, "no private event: the walk below would prove nothing"
    assert all(issubclass(CONTRACTS[t], PrivateTableEvent) for t in PRIVATE_CONTRACTS)


def _payload(model: type[Event]) -> dict[str, Any]:
    """A payload with every field of the contract, naming the table `t-1` and Alice as the player."""
    placeholders: dict[str, Any] = {name: f"<{name}>" for name in model.model_fields}
    return {**placeholders, "table_id": "t-1", "player_id": RECIPIENT.subject_id}


@pytest.mark.parametrize("event_type", PRIVATE_CONTRACTS)
async def test_p1_4_every_private_contract_published_through_the_fanout_reaches_its_recipients_socket_alone(
    event_type: str,
) -> None:
    """Walks the contracts: each private one, as it arrives from the bus, is pushed to its recipient's table
    socket and to no other socket — not the opponent at the table, not the staff watching it, not a lobby or
    tournament subscriber — and a later subscriber's replay of the table's channel does not show it either."""
    model = CONTRACTS[event_type]
    assert issubclass(model, PrivateTableEvent)
    payload = _payload(model)
    assert model.recipient(payload) == RECIPIENT.subject_id
    hub = new_hub()
    watchers = {
        "recipient at the table": (RECIPIENT, SocketKind.TABLE, "table:t-1"),
        "recipient in the lobby": (RECIPIENT, SocketKind.LOBBY, "lobby"),
        "opponent at the table": (OPPONENT, SocketKind.TABLE, "table:t-1"),
        "opponent in the lobby": (OPPONENT, SocketKind.LOBBY, "lobby"),
        "opponent on the tournament": (OPPONENT, SocketKind.LOBBY, "tournament:s-1"),
        "staff at the table": (STAFF, SocketKind.TABLE, "table:t-1"),
    }
    connections = {}
    for name, (principal, socket, channel) in watchers.items():
        connections[name] = hub.connect(principal, socket)
        await hub.subscribe(connections[name], channel)
        drain(connections[name])  # the acknowledgement
    envelope = Envelope(
        id="m-1",
        type=event_type,
        schema_version=model.VERSION,
        occurred_at=NOW,  # type: ignore[arg-type]
        producer="table-engine",
        correlation_id="c-1",
        payload=payload,
        routing_key=model.routing_key(),
    )
    await StreamFanout(hub, LobbyNews(hub, 0))(envelope)
    received = {
        name: [f["data"]["event"] for f in drain(c) if f["type"] == "message"] for name, c in connections.items()
    }
    assert received == {name: [event_type] if name == "recipient at the table" else [] for name in watchers}
    for principal, replayed in ((OPPONENT, []), (STAFF, []), (RECIPIENT, [event_type])):
        late = hub.connect(principal, SocketKind.TABLE)
        await hub.subscribe(late, "table:t-1", history=True)
        assert [f["data"]["event"] for f in drain(late) if f["type"] == "message"] == replayed


@pytest.mark.parametrize("event_type", TABLE_EVENTS)
def test_p1_4_the_table_engine_and_the_gateway_agree_on_every_table_events_audience(event_type: str) -> None:
    """By construction, both read the contract: a private event goes under a key no public binding matches but
    the gateway's does, and the fan-out counts it private; every other table event is public on both sides."""
    model = CONTRACTS[event_type]
    key = model.routing_key()
    gateway_hears = [pattern for pattern in PATTERNS if topic_matches(pattern, key)]
    if model.PRIVATE:
        assert (key, gateway_hears) == (f"private.{event_type}", ["private.table.#"])
        assert event_type in PRIVATE_TABLE_EVENTS and event_type not in PUBLIC_TABLE_EVENTS
    else:
        assert (key, gateway_hears) == (event_type, ["table.#"])
        assert event_type in PUBLIC_TABLE_EVENTS and event_type not in PRIVATE_TABLE_EVENTS
