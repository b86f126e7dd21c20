"""The event loop of the load-generator processes: uvloop where it is installed (it is, with uvicorn's extras),
for more bots per core, and the services' tuning of the garbage collector (`platform_runner.serving`): with
thousands of bots and their requests alive, CPython's default collections were a third of a load generator's
CPU in a toto-rush (py-spy --native)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from platform_runner.serving import tune_garbage_collector


def run(main: Coroutine[Any, Any, None]) -> None:
    tune_garbage_collector()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)
