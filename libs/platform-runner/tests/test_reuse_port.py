"""`<PREFIX>REUSE_PORT`: several processes of a service on one host share its port, and the kernel spreads the
connections over them; without it the second process cannot bind the port."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from platform_kit.testing import eventually

SERVER = Path(__file__).with_name("named_server.py")
#: A process importing FastAPI and uvicorn on a loaded two-core machine.
START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(name: str, port: int, *, reuse_port: bool) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), name, str(port), str(reuse_port).lower()],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield process
    finally:
        process.terminate()
        process.wait(20)


async def answer_on_a_new_connection(port: int) -> str | None:
    """The name of the process that accepted a fresh connection (a new source port: the kernel chooses anew)."""
    try:
        async with httpx.AsyncClient() as http:
            named: str = (await http.get(f"http://127.0.0.1:{port}/", timeout=5)).json()
            return named
    except httpx.TransportError:
        return None


async def test_two_processes_with_reuse_port_share_the_port_and_both_get_connections() -> None:
    port = free_port()
    with served("one", port, reuse_port=True) as one:
        assert await eventually(lambda: answer_on_a_new_connection(port), timeout=START_SECONDS) == "one"
        with served("two", port, reuse_port=True) as two:
            seen: set[str | None] = set()

            async def both_answered() -> bool:
                seen.add(await answer_on_a_new_connection(port))
                return {"one", "two"} <= seen

            await eventually(both_answered, timeout=START_SECONDS)
            assert one.poll() is None and two.poll() is None
        assert two.returncode == 0  # stopped by SIGTERM, cleanly


async def test_without_reuse_port_a_second_process_cannot_bind_the_port() -> None:
    port = free_port()
    with served("one", port, reuse_port=False):
        assert await eventually(lambda: answer_on_a_new_connection(port), timeout=START_SECONDS) == "one"
        with served("two", port, reuse_port=False) as two:
            assert two.wait(START_SECONDS) != 0
            assert two.stderr is not None and b"address already in use" in two.stderr.read()
