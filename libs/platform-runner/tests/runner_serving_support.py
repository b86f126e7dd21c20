"""An app served in the test's event loop the way `platform serve` configures a service (`server_config`), on
a free local port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from fastapi import FastAPI
from platform_kit.settings import ServiceSettings
from platform_kit.testing import eventually
from platform_runner.serving import server_config


@asynccontextmanager
async def served(app: FastAPI, settings: ServiceSettings) -> AsyncIterator[int]:
    """The port `app` answers on, until the block ends (then the server stops)."""
    config = server_config(app, settings)
    config.port = 0
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return server.started

    await eventually(started)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task
