"""The lobby's registration news (issue 14): registration bursts through the gateway's fan-out to its lobby
sockets, in process and without a network, with the news coalesced (`GATEWAY_LOBBY_NEWS_INTERVAL_SECONDS`) and
without (0): messages queued to lobby sockets, and the fan-out's CPU time (the hub's numbering and queueing only;
each queued message is also a WebSocket write, not counted here). Two bursts by default: a 3,000-player tournament
filling in 120 s, and 100 nine-player sit'n'gos filling in 10 s (several tournaments' held news share a message).

    uv run python bench/bench_lobby_news.py [--bursts 3000/1/120,900/100/10] [--sockets 300,1000]

The burst's time is simulated (the registrations spread evenly over the window), so the table does not depend on
the machine's load except for the CPU column.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time

from gateway.domain.channels import SocketKind
from gateway.domain.roles import Principal, Role
from gateway.service.fanout import StreamFanout
from gateway.service.hub import Hub
from gateway.service.lobby_news import LobbyNews
from platform_kit.bus import Envelope
from platform_kit.events.tournament import PlayerRegistered


async def burst(
    registrations: int, tournaments: int, window: float, sockets: int, interval: float
) -> tuple[int, float]:
    """Messages queued to `sockets` lobby sockets, and the fan-out's CPU seconds; the registrations go to the
    tournaments in turn."""
    epochs = (f"epoch-{n}" for n in itertools.count())
    hub = Hub(replay_capacity=500, send_queue_size=registrations + 10, new_epoch=lambda: next(epochs))
    now = 0.0
    news = LobbyNews(hub, interval, monotonic=lambda: now)
    fanout = StreamFanout(hub, news)
    lobbies = [hub.connect(Principal(Role.PLAYER, f"p{n}", "c-1", f"P{n}"), SocketKind.LOBBY) for n in range(sockets)]
    for connection in lobbies:
        await hub.subscribe(connection, "lobby")
    acknowledgements = sum(connection.pending.qsize() for connection in lobbies)
    events = [
        Envelope.wrap(
            PlayerRegistered(
                tournament_id=f"t-{n % tournaments}", player_id=f"x{n}", entry="buy_in", registered=n // tournaments + 1
            ),
            producer="tournament-director",
        )
        for n in range(registrations)
    ]
    started = time.process_time()
    for n, envelope in enumerate(events):
        now = n * window / registrations
        await fanout(envelope)
        news.send_due()  # the timer's step, as often as registrations arrive
    now += interval
    news.send_due()
    cpu = time.process_time() - started
    return sum(connection.pending.qsize() for connection in lobbies) - acknowledgements, cpu


async def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--bursts", default="3000/1/120,900/100/10", help="registrations/tournaments/window s, …")
    arguments.add_argument("--sockets", default="300,1000")
    options = arguments.parse_args()
    print("| burst | lobby sockets | interval | messages queued to lobby sockets | fan-out CPU s |")
    print("|---|---|---|---|---|")
    for spec in options.bursts.split(","):
        registrations, tournaments, window = (float(part) for part in spec.split("/"))
        what = f"{registrations:,.0f} registrations, {tournaments:,.0f} tournament(s), {window:g} s"
        for sockets in (int(s) for s in options.sockets.split(",")):
            for interval in (0.0, 1.0):
                queued, cpu = await burst(int(registrations), int(tournaments), window, sockets, interval)
                print(f"| {what} | {sockets:,} | {interval:g} s | {queued:,} | {cpu:.2f} |")


if __name__ == "__main__":
    asyncio.run(main())
