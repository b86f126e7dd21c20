"""One address for the bots in front of several gateway instances: a TCP proxy that hands each new connection
to the next gateway in turn and keeps it there (a keep-alive HTTP connection or a WebSocket is TCP: it stays on
the gateway that accepted it, as behind a layer-4 load balancer).

It runs as its own process, so that its CPU is measured apart from the bots' and the gateways':

    PYTHONPATH=bench python -m capacity.balancer --port 9000 127.0.0.1:8001 127.0.0.1:8002
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import signal
from collections.abc import Iterator, Sequence

from capacity.loop import run

log = logging.getLogger("balancer")

CHUNK = 64 * 1024


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until the reading side ends; then end the writing side too (a half-close of HTTP/1.1 is a close)."""
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


class Balancer:
    def __init__(self, backends: Sequence[tuple[str, int]]) -> None:
        self._next: Iterator[tuple[str, int]] = itertools.cycle(backends)
        self.connections = 0
        self.failed = 0

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        host, port = next(self._next)
        self.connections += 1
        try:
            backend_reader, backend_writer = await asyncio.open_connection(host, port)
        except OSError as error:
            self.failed += 1
            log.warning("gateway %s:%s refused a connection: %s", host, port, error)
            client_writer.close()
            return
        pumps = [
            asyncio.create_task(_pump(client_reader, backend_writer)),
            asyncio.create_task(_pump(backend_reader, client_writer)),
        ]
        # Either side closing ends the connection: the other pump is stopped and both sockets closed.
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        for writer in (backend_writer, client_writer):
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def serve(port: int, backends: Sequence[tuple[str, int]]) -> None:
    balancer = Balancer(backends)
    server = await asyncio.start_server(balancer.handle, "127.0.0.1", port, backlog=4096)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopped.set)
    log.warning("balancing 127.0.0.1:%s over %s", port, ", ".join(f"{h}:{p}" for h, p in backends))
    async with server:
        await stopped.wait()
    log.warning("stopped after %s connections (%s refused by a gateway)", balancer.connections, balancer.failed)


def _backend(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("backends", nargs="+", type=_backend, help="host:port of each gateway")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s balancer %(message)s")
    run(serve(args.port, args.backends))


if __name__ == "__main__":
    main()
