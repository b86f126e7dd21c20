"""The whole platform in the test's process, for the tests that must see what real callers get end to end
(who may call each route, what a non-owner sees of a live hand): the six services' own apps on free local
ports (uvicorn), one in-memory bus and an SQLite file each — `make run`'s standalone mode — with cheap password
hashing, generous rate limits and table clocks slow enough that a hand stays live while a test looks at it.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from gateway_test_support import fast_settings
from platform_kit.bus import InMemoryBus
from platform_runner.services import SERVICES, app_factory, settings_class

INTERNAL_TOKEN = "live-platform-internal-token"
JWT_SECRET = "live-platform-jwt-secret-of-32-characters-or-more"
#: Nobody acts unless a test does: a hand waits this long for its player to act before the default applies.
SLOW_TABLE_SECONDS = 600


@dataclass(frozen=True, slots=True)
class LivePlatform:
    urls: dict[str, str]
    apps: dict[str, FastAPI]

    @property
    def gateway(self) -> str:
        return self.urls["gateway"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _settings(service: str, data_dir: Path, port: int, urls: dict[str, str]) -> Any:
    common: dict[str, Any] = {
        "database_url": f"sqlite+aiosqlite:///{data_dir / service}.db",
        "bus_url": "memory://",
        "port": port,
        "internal_token": INTERNAL_TOKEN,
        **{f"{name.replace('-', '_')}_url": url for name, url in urls.items()},
    }
    if service == "gateway":
        return fast_settings(common.pop("database_url"), jwt_secret=JWT_SECRET, **common)
    if service == "tournament-director":
        common.update(action_seconds=SLOW_TABLE_SECONDS, time_bank_seconds=SLOW_TABLE_SECONDS)
    return settings_class(service).model_validate(common)


@asynccontextmanager
async def live_platform(data_dir: Path) -> AsyncIterator[LivePlatform]:
    bus = InMemoryBus()
    ports = {service: _free_port() for service in SERVICES}
    urls = {service: f"http://127.0.0.1:{port}" for service, port in ports.items()}
    servers, apps = [], {}
    for service in SERVICES:
        settings = _settings(service, data_dir, ports[service], urls)
        app = apps[service] = app_factory(service)(settings, bus=bus)
        config = uvicorn.Config(app, host="127.0.0.1", port=ports[service], log_level="warning", lifespan="on")
        servers.append(uvicorn.Server(config))
    tasks = [asyncio.create_task(server.serve()) for server in servers]
    try:
        while not all(server.started for server in servers):  # uvicorn offers no event to wait on
            if any(task.done() for task in tasks):
                raise RuntimeError("a service of the live platform did not start")
            await asyncio.sleep(0.05)
        yield LivePlatform(urls, apps)
    finally:
        for server in servers:
            server.should_exit = True
        await asyncio.gather(*tasks, return_exceptions=True)
