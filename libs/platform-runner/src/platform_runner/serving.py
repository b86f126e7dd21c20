"""Serving several FastAPI apps from one event loop, with one set of signal handlers for all of them."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import socket
from collections.abc import Coroutine, Generator, Sequence
from typing import Any

import uvicorn
import uvloop
from fastapi import FastAPI
from platform_kit.settings import ServiceSettings

#: How long an idle keep-alive connection stays open. It must outlast every client's own idle expiry (httpx and
#: the kit's internal client drop idle connections after 5 s; load balancers commonly after 60 s): a server that
#: closes a connection in the instant a client reuses it makes that request fail with "server disconnected"
#: before it was read.
KEEP_ALIVE_SECONDS = 75
#: WebSocket messages are sent uncompressed. With permessage-deflate (uvicorn's default, and every browser asks
#: for it) each socket keeps its own compressor, so a table event fanned out to ten sockets is compressed ten
#: times, and each socket holds the compressor's memory for its life: the gateway's CPU and RSS grew with the
#: sockets, not the events (issue 14). Our messages are a few hundred bytes of JSON; the bytes saved do not pay.
WEBSOCKET_COMPRESSION = False
#: No protocol-level pings from the server (uvicorn's default: one every 20 s per socket). The gateway's own
#: heartbeat already pings every socket and closes one that stops answering (a browser cannot see protocol pings,
#: so it is the application's heartbeat that matters); uvicorn's pings and their pongs were about 7% of a gateway's
#: busy samples with 3,000 sockets in the 3,000-player run (py-spy --native, issue 14).
WEBSOCKET_PROTOCOL_PING_SECONDS = None
#: The collector's thresholds (CPython's defaults: 700, 10, 10): see `tune_garbage_collector`.
GC_THRESHOLDS = (50_000, 20, 10)


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        # Signals are handled once for all servers in `serve_all`, not by each server.
        yield


def server_config(app: FastAPI, settings: ServiceSettings) -> uvicorn.Config:
    """The app on its settings' host and port. uvicorn's proxy-headers middleware believes X-Forwarded-For only
    from the settings' trusted proxies and takes its last hop that is not one of them (platform_kit.proxies)."""
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        ws_per_message_deflate=WEBSOCKET_COMPRESSION,
        ws_ping_interval=WEBSOCKET_PROTOCOL_PING_SECONDS,
    )


def shared_port_socket(host: str, port: int) -> socket.socket:
    """The host and port bound with SO_REUSEPORT, shared by every process that binds them so: the kernel spreads
    new connections over those listening. Not listening yet: uvicorn listens once the app has started, so a
    process still starting gets no connection (they would wait in its backlog, or be reset if it failed).
    Raises OSError when the port is taken by a socket without SO_REUSEPORT (or another user's)."""
    family, kind, protocol, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        # Inherited by the accepted connections: without it, a socket handed to uvicorn answers after Nagle's
        # algorithm meets the client's delayed ACK (a flat ~40 ms per request; uvicorn sets it only on its own).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def _sockets(settings: ServiceSettings) -> list[socket.socket] | None:
    """The socket to serve on when the port is shared (`reuse_port`); None: uvicorn binds host and port itself."""
    return [shared_port_socket(settings.host, settings.port)] if settings.reuse_port else None


async def serve_all(apps: Sequence[tuple[FastAPI, ServiceSettings]]) -> None:
    """Each app on its own server, all in this event loop. A port that cannot be bound ends the process (uvicorn
    exits 1; `shared_port_socket` raises OSError before any server starts)."""
    servers = [(_Server(server_config(app, settings)), _sockets(settings)) for app, settings in apps]
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for server, _ in servers:
            server.should_exit = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    await asyncio.gather(*(server.serve(sockets=sockets) for server, sockets in servers))


def run(main: Coroutine[Any, Any, None]) -> None:
    """Runs the servers on uvloop, as `uvicorn.run` would: `asyncio.run` alone takes the pure-Python event loop,
    on which the gateway spent 10-20% more CPU per request and answered `GET /players/me` at half the rate
    (50 clients, issue 14). The garbage collector is tuned first (`tune_garbage_collector`)."""
    tune_garbage_collector()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main)


def tune_garbage_collector() -> None:
    """Fewer, larger collections. CPython collects its youngest generation every 700 net allocations (its
    default) and the older ones every tenth of those; a gateway holding thousands of sockets, whose objects are
    scanned again and again, spent a fifth of its busy time in the collector during a registration rush
    (py-spy --native, 3,000-player run, issue 14). What is loaded by now (modules, settings) lives as long as
    the process: frozen, it is never scanned again. Reference counting still frees nearly everything at once; the
    collector only finds cycles, which now wait a little longer (a few MB at most)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
