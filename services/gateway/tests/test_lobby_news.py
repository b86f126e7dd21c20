"""The lobby's public news coalesced (issue 14): at most one message per interval on the `lobby` channel — at once
after a quiet interval, else everything that came meanwhile together, in order, a tournament's registrations as
the latest; its own channel keeps every registration."""

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from gateway.domain.channels import SocketKind
from gateway.domain.lobby_digest import digest, unpacked
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
def test_news_after_a_quiet_interval_goes_at_once_and_what_follows_when_the_interval_ends() -> None:
    news = NewsCoalescer[str](INTERVAL)
    assert news.offer("1 registered", now=10.0, key="snd-1") == "1 registered"
    assert news.offer("2 registered", now=10.2, key="snd-1") is None
    assert news.offer("3 registered", now=10.5, key="snd-1") is None  # replaces the one held
    assert news.next_due() == 11.0
    assert news.due(10.9) == []
    assert news.due(11.0) == ["3 registered"]
    assert news.next_due() is None
    assert news.offer("4 registered", now=11.5, key="snd-1") is None  # within the interval after that last send
    assert news.due(12.0) == ["4 registered"]


def test_everything_held_goes_out_together_in_the_order_it_came() -> None:
    news = NewsCoalescer[str](INTERVAL)
    assert news.offer("a1", now=0.0, key="snd-1") == "a1"
    assert news.offer("b1", now=0.5, key="snd-2") is None  # another tournament: held all the same
    assert news.offer("draw closed", now=0.6) is None
    assert news.offer("a2", now=0.7, key="snd-1") is None
    assert news.offer("a started", now=0.8) is None  # no key: never replaced
    assert news.offer("b2", now=0.9, key="snd-2") is None  # replaces b1, and comes after what came meanwhile
    assert news.due(1.0) == ["draw closed", "a2", "a started", "b2"]


def test_after_a_quiet_interval_news_goes_at_once_again() -> None:
    news = NewsCoalescer[str](INTERVAL)
    assert news.offer("1 registered", now=0.0, key="snd-1") == "1 registered"
    assert news.due(5.0) == []
    assert news.offer("2 registered", now=5.0, key="snd-1") == "2 registered"
    assert news.offer("3 registered", now=7.0, key="snd-1") == "3 registered"  # no due() between: late is quiet too


def test_nothing_passes_news_held() -> None:
    """Past the interval but before the timer sent what is held, new news is held behind it, not sent first."""
    news = NewsCoalescer[str](INTERVAL)
    news.offer("a1", now=0.0, key="snd-1")
    news.offer("a2", now=0.5, key="snd-1")
    assert news.offer("a started", now=3.0) is None
    assert news.due(3.0) == ["a2", "a started"]


def test_an_interval_of_zero_is_not_coalescing() -> None:
    with pytest.raises(ValueError, match="positive"):
        NewsCoalescer[str](0)


def test_a_client_reads_the_pieces_of_a_digest_as_if_each_came_alone() -> None:
    first = {"event": "tournament.player.registered", "occurred_at": "2030-06-01T12:00:00+00:00", "payload": {}}
    later = {"event": "tournament.tournament.started", "occurred_at": "2030-06-01T12:00:01+00:00", "payload": {}}
    together = digest([first, later])
    assert (together["event"], together["occurred_at"]) == ("lobby.news", later["occurred_at"])
    assert unpacked(together) == [first, later]
    assert unpacked(first) == [first]


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


async def test_a_tournaments_news_stays_in_order_with_its_held_registrations(lobby_and_tournament: Any) -> None:
    fanout, news, clock, lobby, _ = lobby_and_tournament
    await fanout(envelope(registered(1)))
    await fanout(envelope(registered(2)))
    await fanout(envelope(registered(1, "snd-2")))
    await fanout(envelope(DrawClosed(draw_id="2030-23", closed_at=NOW, coupons=1, bets=1, pool_usd="1.00")))
    await fanout(envelope(TournamentStarted(tournament_id="snd-1", players=2, tables=["t-1"])))
    assert heard(lobby) == [("tournament.player.registered", 1)]
    clock.now += INTERVAL
    news.send_due()
    [digest] = [frame["data"] for frame in drain(lobby)]
    assert [(m["event"], m["payload"].get("tournament_id")) for m in digest["payload"]["news"]] == [
        ("tournament.player.registered", "snd-1"),
        ("tournament.player.registered", "snd-2"),
        ("totalizator.draw.closed", None),
        ("tournament.tournament.started", "snd-1"),
    ]
    assert digest["payload"]["news"][0]["payload"]["registered"] == 2


async def test_several_tournaments_news_reach_a_lobby_socket_as_one_message_a_tick(lobby_and_tournament: Any) -> None:
    """A hundred sit'n'gos filling at once: each lobby socket gets one message a tick, not one per tournament."""
    fanout, news, clock, lobby, _ = lobby_and_tournament
    for n in range(1, 4):
        for tournament_id in ("snd-1", "snd-2", "snd-3"):
            await fanout(envelope(registered(n, tournament_id)))
        clock.now += 0.1
    assert heard(lobby) == [("tournament.player.registered", 1)]  # the first, at once
    news.send_due()
    assert drain(lobby) == []  # nothing due yet
    clock.now += INTERVAL
    news.send_due()
    [digest] = [frame["data"] for frame in drain(lobby)]
    assert digest["event"] == "lobby.news"
    assert [(m["payload"]["tournament_id"], m["payload"]["registered"]) for m in digest["payload"]["news"]] == [
        ("snd-1", 3),
        ("snd-2", 3),
        ("snd-3", 3),
    ]
    assert digest["occurred_at"] == max(m["occurred_at"] for m in digest["payload"]["news"])


async def test_with_an_interval_of_zero_the_lobby_hears_every_registration() -> None:
    hub = new_hub()
    lobby = hub.connect(ALICE, SocketKind.LOBBY)
    await hub.subscribe(lobby, "lobby")
    drain(lobby)
    fanout = StreamFanout(hub, LobbyNews(hub, 0))
    for n in range(1, 4):
        await fanout(envelope(registered(n)))
    assert heard(lobby) == [("tournament.player.registered", n) for n in range(1, 4)]
