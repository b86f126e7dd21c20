"""The lobby's registration news coalesced (issue 14): a tournament's registrations reach the `lobby` channel at
most once per interval, the latest, in order with its other news; its own channel keeps every one."""

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from gateway.domain.channels import SocketKind
from gateway.domain.news_coalescing import NewsCoalescer
from gateway.service.fanout import StreamFanout
from gateway.service.lobby_news import LobbyNews
from platform_kit.bus import Envelope
from platform_kit.events.base import Event
from platform_kit.events.totalizator import DrawClosed
from platform_kit.events.tournament import PlayerRegistered, PlayerUnregistered, TournamentStarted
from platform_kit.testing import eventually
from test_hub import ALICE, BOB, drain, new_hub

INTERVAL = 1.0
NOW = datetime(2030, 6, 1, 12, tzinfo=UTC)


# -- the rule, pure ----------------------------------------------------------------------------------------------
def test_the_first_news_goes_at_once_and_the_latest_of_the_rest_when_the_interval_ends() -> None:
    news = NewsCoalescer[str](INTERVAL)
    assert news.offer("snd-1", "1 registered", now=10.0) == "1 registered"
    assert news.offer("snd-1", "2 registered", now=10.2) is None
    assert news.offer("snd-1", "3 registered", now=10.5) is None  # replaces the one held
    assert news.next_due() == 11.0
    assert news.due(10.9) == []
    assert news.due(11.0) == ["3 registered"]
    assert news.next_due() is None
    assert news.offer("snd-1", "4 registered", now=11.5) is None  # within the interval after that last send
    assert news.due(12.0) == ["4 registered"]


def test_each_key_has_its_own_interval() -> None:
    news = NewsCoalescer[str](INTERVAL)
    assert news.offer("snd-1", "a1", now=0.0) == "a1"
    assert news.offer("snd-2", "b1", now=0.5) == "b1"
    assert news.offer("snd-1", "a2", now=0.6) is None
    assert news.offer("snd-2", "b2", now=0.7) is None
    assert news.due(1.0) == ["a2"]
    assert news.due(1.5) == ["b2"]


def test_a_key_quiet_for_an_interval_is_forgotten_and_its_next_news_goes_at_once() -> None:
    news = NewsCoalescer[str](INTERVAL)
    news.offer("snd-1", "1 registered", now=0.0)
    assert news.due(5.0) == []
    assert news.offer("snd-1", "2 registered", now=5.0) == "2 registered"
    assert news.offer("snd-1", "3 registered", now=7.0) == "3 registered"  # no due() between: late is quiet too


def test_what_is_held_is_taken_out_to_precede_a_later_news_of_its_key() -> None:
    news = NewsCoalescer[str](INTERVAL)
    news.offer("snd-1", "1 registered", now=0.0)
    news.offer("snd-1", "2 registered", now=0.1)
    assert news.take("snd-2", now=0.2) is None
    assert news.take("snd-1", now=0.2) == "2 registered"
    assert news.take("snd-1", now=0.3) is None
    assert news.due(5.0) == []


def test_an_interval_of_zero_is_not_coalescing() -> None:
    with pytest.raises(ValueError, match="positive"):
        NewsCoalescer[str](0)


# -- through the fan-out, without sockets ------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def registered(count: int, tournament_id: str = "snd-1") -> PlayerRegistered:
    return PlayerRegistered(tournament_id=tournament_id, player_id=f"p{count}", entry="buy_in", registered=count)


def envelope(event: Event) -> Envelope:
    return Envelope.wrap(event, producer="tournament-director")


def heard(connection: Any) -> list[tuple[str, Any]]:
    """(event, its `registered` count or tournament) of each message the connection was sent."""
    return [
        (f["data"]["event"], f["data"]["payload"].get("registered", f["data"]["payload"].get("tournament_id")))
        for f in drain(connection)
        if f["type"] == "message"
    ]


@pytest.fixture
async def lobby_and_tournament() -> Any:
    hub = new_hub()
    clock = Clock()
    news = LobbyNews(hub, INTERVAL, monotonic=clock)
    lobby, tournament = hub.connect(ALICE, SocketKind.LOBBY), hub.connect(BOB, SocketKind.LOBBY)
    await hub.subscribe(lobby, "lobby")
    await hub.subscribe(tournament, "tournament:snd-1")
    drain(lobby), drain(tournament)  # the acknowledgements
    return StreamFanout(hub, news), news, clock, lobby, tournament


async def test_a_registration_burst_reaches_the_lobby_as_its_first_and_latest_news_and_the_tournament_whole(
    lobby_and_tournament: Any,
) -> None:
    fanout, news, clock, lobby, tournament = lobby_and_tournament
    for n in range(1, 6):
        await fanout(envelope(registered(n)))
        clock.now += 0.1
    unregistered = PlayerUnregistered(tournament_id="snd-1", player_id="p2", refunded_cents=1000, registered=4)
    await fanout(envelope(unregistered))
    assert heard(lobby) == [("tournament.player.registered", 1)]
    assert heard(tournament) == [("tournament.player.registered", n) for n in range(1, 6)] + [
        ("tournament.player.unregistered", 4)
    ]

    async def held_news_sent() -> list[tuple[str, Any]]:
        return heard(lobby)

    clock.now += INTERVAL
    timer = asyncio.create_task(news.run())
    try:
        assert await eventually(held_news_sent) == [("tournament.player.unregistered", 4)]
    finally:
        timer.cancel()


async def test_a_tournaments_later_news_sends_its_held_registrations_first(lobby_and_tournament: Any) -> None:
    fanout, _, _, lobby, _ = lobby_and_tournament
    await fanout(envelope(registered(1)))
    await fanout(envelope(registered(2)))
    await fanout(envelope(registered(1, "snd-2")))  # another tournament's news is not held behind snd-1's
    await fanout(envelope(DrawClosed(draw_id="2030-23", closed_at=NOW, coupons=1, bets=1, pool_usd="1.00")))
    await fanout(envelope(TournamentStarted(tournament_id="snd-1", players=2, tables=["t-1"])))
    assert heard(lobby) == [
        ("tournament.player.registered", 1),
        ("tournament.player.registered", 1),
        ("totalizator.draw.closed", None),
        ("tournament.player.registered", 2),
        ("tournament.tournament.started", "snd-1"),
    ]


async def test_with_an_interval_of_zero_the_lobby_hears_every_registration() -> None:
    hub = new_hub()
    lobby = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(lobby, "lobby")
    drain(lobby)
    fanout = StreamFanout(hub, LobbyNews(hub, 0))
    for n in range(1, 4):
        await fanout(envelope(registered(n)))
    assert heard(lobby) == [("tournament.player.registered", n) for n in range(1, 4)]
