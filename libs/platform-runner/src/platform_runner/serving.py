"""Serving several FastAPI apps from one event loop, with one set of signal handlers for all of them."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Generator, Sequence

import uvicorn
from fastapi import FastAPI
from platform_kit.settings import ServiceSettings


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        # Signals are handled once for all servers in `serve_all`, not by each server.
        yield


async def serve_all(apps: Sequence[tuple[FastAPI, ServiceSettings]]) -> None:
    """Each app on its settings' host and port, believing forwarded headers from its trusted proxies only."""
    servers = [
        _Server(
            uvicorn.Config(
                app,
                host=settings.host,
                port=settings.port,
                forwarded_allow_ips=settings.forwarded_allow_ips,
                log_config=None,
                access_log=False,
                lifespan="on",
            )
        )
        for app, settings in apps
    ]
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for server in servers:
            server.should_exit = True

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    await asyncio.gather(*(server.serve() for server in servers))
