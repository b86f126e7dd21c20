"""A real TCP server for the tests of what the kit sends over the network (aiohttp)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Literal


class RecordingService:
    """A real TCP server, for the calls that go over the network (aiohttp): it keeps each request's head and body
    and answers 201 with a JSON body — or, as `behaviour` says, hangs up without answering (`hang_up`) or never
    answers (`silent`)."""

    def __init__(self, behaviour: Literal["answer", "hang_up", "silent"] = "answer") -> None:
        self.behaviour = behaviour
        self.server: asyncio.Server | None = None
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self._silent = asyncio.Event()  # what a silent server waits for: set as the server stops
        self._writers: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> str:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while head := await reader.readuntil(b"\r\n\r\n"):
                line, *fields = head.decode().split("\r\n")[:-2]
                headers = {name.lower(): value.strip() for name, value in (f.split(":", 1) for f in fields)}
                body = await reader.readexactly(int(headers.get("content-length", 0)))
                self.requests.append((line, headers, body))
                if self.behaviour == "hang_up":
                    writer.close()
                    return
                if self.behaviour == "silent":
                    await self._silent.wait()
                sent = b'{"operation_id": 7}'
                writer.write(b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\n")
                writer.write(b"x-seen: yes\r\ncontent-length: %d\r\n\r\n%s" % (len(sent), sent))
                await writer.drain()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self._writers.add(writer)
            with contextlib.suppress(asyncio.IncompleteReadError):  # the client closed its connection
                await answer(reader, writer)
            writer.close()

        self.server = await asyncio.start_server(serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def __aexit__(self, *_: object) -> None:
        assert self.server is not None
        self.server.close()
        self._silent.set()
        for writer in self._writers:  # a silent server's connections too
            writer.close()
