"""Platform events pushed to WebSocket clients: every gateway instance receives its own copy of each table,
tournament and totalizator event (`runtime.on_each_instance`) and publishes it on the hub's channels.

| events | channels |
|---|---|
| `table.*` | `table:<id>`; a table's opening and its seatings also on `tournament:<id>`, and to each seated player alone on `lobby` (so their client opens the table) |
| a `PrivateTableEvent` (hole cards, refusals, deck receipts) | `table:<id>`, to its `recipient` alone (P-1.4) |
| `tournament.*` | `tournament:<id>`; the lobby's news (announced, registrations, start, pause and resumption, end) also on `lobby`, coalesced there: at most one message per `GATEWAY_LOBBY_NEWS_INTERVAL_SECONDS` (several pieces of news in one `lobby.news`), of a tournament's registrations the latest (issue 14, `lobby_news.py`) |
| `totalizator.*` | `draw:<id>`; the draw's life cycle (not its statistics) also on `lobby` |
| `totalizator.coupon.settled` (any totalizator event naming a `player_id`) | `draw:<id>`, to that player alone (P-11.5) |

A coupon's outcome is public on the bus (partners' webhooks take it) but a player's winnings are theirs: on a
draw's channel, which anyone may watch, it reaches its player's sockets only. Table events fail closed: a table
event type this gateway does not know (a newer engine's) is dropped, never shown to everyone, since it might be
private. A channel's log is dropped once its table, tournament or draw is
over: a client coming back later is told to reload its state.

A message's data is `{"event": <type>, "occurred_at": <ISO 8601>, "payload": <the event's payload>}`.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from platform_kit.bus import Envelope
from platform_kit.events.base import EVENT_TYPES, Command
from platform_kit.events.table import (
    PlayerSeated,
    PlayerUnseated,
    PrivateTableEvent,
    TableClosed,
    TableOpened,
)
from platform_kit.events.totalizator import DrawAnnounced, DrawCancelled, DrawClosed, DrawSettled
from platform_kit.events.tournament import (
    PlayerRegistered,
    PlayerUnregistered,
    RegistrationOpened,
    TournamentAnnounced,
    TournamentCancelled,
    TournamentFinished,
    TournamentPaused,
    TournamentResumed,
    TournamentStarted,
)

from gateway.domain.channels import Channel
from gateway.service.hub import Hub
from gateway.service.lobby_news import LOBBY, LobbyNews

log = logging.getLogger(__name__)

# A private table event, published under `private.table.…`, matches the second pattern only: never `table.#`.
PATTERNS = ("table.#", "private.table.#", "tournament.#", "totalizator.#")

# Both sets follow the contracts (`PrivateTableEvent`), the declaration the table engine publishes by. A table
# event marked private some other way is in neither, so it is dropped rather than shown to everyone.
PRIVATE_TABLE_EVENTS: Mapping[str, type[PrivateTableEvent]] = {
    event_type: model for event_type, model in EVENT_TYPES.items() if issubclass(model, PrivateTableEvent)
}
PUBLIC_TABLE_EVENTS = frozenset(
    event_type
    for event_type, model in EVENT_TYPES.items()
    if model.__module__ == "platform_kit.events.table" and not issubclass(model, Command) and not model.PRIVATE
)
SEATING_EVENTS = frozenset({TableOpened.TYPE, TableClosed.TYPE, PlayerSeated.TYPE, PlayerUnseated.TYPE})
LOBBY_EVENTS = frozenset(
    {
        TournamentAnnounced.TYPE,
        RegistrationOpened.TYPE,
        PlayerRegistered.TYPE,
        PlayerUnregistered.TYPE,
        TournamentStarted.TYPE,
        TournamentPaused.TYPE,  # the lobby's card says "Paused" (issue 17)
        TournamentResumed.TYPE,
        TournamentFinished.TYPE,
        TournamentCancelled.TYPE,
        DrawAnnounced.TYPE,
        DrawClosed.TYPE,
        DrawSettled.TYPE,
        DrawCancelled.TYPE,
    }
)
FINAL_EVENTS = {
    TableClosed.TYPE: "table",
    TournamentFinished.TYPE: "tournament",
    TournamentCancelled.TYPE: "tournament",
    DrawSettled.TYPE: "draw",
    DrawCancelled.TYPE: "draw",
}


@dataclass(frozen=True, slots=True)
class Delivery:
    channel: str
    only_player: str | None = None


#: The lobby's public news, which goes through `LobbyNews` (coalesced).
PUBLIC_LOBBY = Delivery(LOBBY)


def deliveries(event_type: str, payload: Mapping[str, Any]) -> list[Delivery]:
    """Where one event goes (pure: the table above)."""
    service = event_type.split(".", 1)[0]
    if service == "table":
        return _table_deliveries(event_type, payload)
    if service == "tournament":
        found = [Delivery(f"tournament:{payload['tournament_id']}")]
        return [*found, Delivery("lobby")] if event_type in LOBBY_EVENTS else found
    if service == "totalizator":
        draw = f"draw:{payload['draw_id']}"
        if "player_id" in payload:  # one player's coupon, and a newer totalizator's unknown kinds alike
            return [Delivery(draw, only_player=payload["player_id"])]
        return [Delivery(draw), Delivery("lobby")] if event_type in LOBBY_EVENTS else [Delivery(draw)]
    return []


def _table_deliveries(event_type: str, payload: Mapping[str, Any]) -> list[Delivery]:
    table = f"table:{payload['table_id']}"
    private = PRIVATE_TABLE_EVENTS.get(event_type)
    if private is not None:
        return [Delivery(table, only_player=private.recipient(payload))]
    if event_type not in PUBLIC_TABLE_EVENTS:
        return []
    found = [Delivery(table)]
    tournament_id = payload.get("tournament_id")
    if event_type in SEATING_EVENTS and tournament_id:
        found.append(Delivery(f"tournament:{tournament_id}"))
    if event_type == TableOpened.TYPE:
        found += [Delivery("lobby", only_player=seat["player_id"]) for seat in payload["seats"]]
    elif event_type == PlayerSeated.TYPE:
        found.append(Delivery("lobby", only_player=payload["player"]["player_id"]))
    return found


def finished_channel(event_type: str, payload: Mapping[str, Any]) -> str | None:
    """The channel whose story this event ends, if any."""
    kind = FINAL_EVENTS.get(event_type)
    if kind is None:
        return None
    return f"{kind}:{payload[f'{kind}_id']}"


class RecentIds:
    """The last `capacity` message ids seen: a message delivered twice is pushed once."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._ids: OrderedDict[str, None] = OrderedDict()

    def first_time(self, message_id: str) -> bool:
        if message_id in self._ids:
            return False
        self._ids[message_id] = None
        if len(self._ids) > self._capacity:
            self._ids.popitem(last=False)
        return True


class StreamFanout:
    """`runtime.on_each_instance(pattern, fanout)` for each of `PATTERNS`; the lobby's public news goes through
    `lobby` (which coalesces it)."""

    def __init__(self, hub: Hub, lobby: LobbyNews, *, remember: int = 10_000) -> None:
        self._hub = hub
        self._lobby = lobby
        self._recent = RecentIds(remember)

    async def __call__(self, envelope: Envelope) -> None:
        if not self._recent.first_time(envelope.id):
            return
        message = {"event": envelope.type, "occurred_at": envelope.occurred_at.isoformat(), "payload": envelope.payload}
        try:
            routes = deliveries(envelope.type, envelope.payload)
            finished = finished_channel(envelope.type, envelope.payload)
        except (KeyError, TypeError):
            log.warning("event without the ids its channels need", extra={"type": envelope.type, "id": envelope.id})
            return
        for route in routes:
            if route == PUBLIC_LOBBY:
                self._lobby.publish(message)
            elif _valid(route.channel):
                self._hub.publish(route.channel, message, only_player=route.only_player)
        if finished is not None and _valid(finished):
            self._hub.forget(finished)


def _valid(channel: str) -> bool:
    try:
        Channel.parse(channel)
    except ValueError:
        log.warning("event for a channel name the hub cannot carry", extra={"channel": channel})
        return False
    return True
