"""HTTP requests sent over aiohttp, answered as httpx answers: an `httpx.Response`, and httpx's exceptions.

Why: httpx's own transport (httpcore and h11, pure Python) costs a caller several times the CPU aiohttp does for
the same request: with 200 requests in flight, 5-6 ms against 0.2-0.3 ms, and 0.6 ms through an httpx client with
this transport under it (bench/bench_internal_client.py, issue 14). What callers read stays httpx's, so nothing
above the sender changes.

- `AiohttpSender`: a pool of connections, a request in, an `httpx.Response` out (the kit's internal client).
- `AiohttpTransport`: the same under an `httpx.AsyncClient` (the capacity benchmark's bots: thousands of requests
  a second from a load generator that shares the machine's cores with the platform it measures).

A failure is the httpx exception a caller catches for it (`as_httpx_error`): a connection the server closed as
the request went out, unanswered, is `httpx.RemoteProtocolError`, so a caller can tell it from a time-out.
"""

from __future__ import annotations

import aiohttp
import httpx

#: How long an idle connection is kept for the next request: less than the services keep theirs open
#: (platform_runner.serving.KEEP_ALIVE_SECONDS, test_keep_alive.py), so a service never closes one as it is reused.
IDLE_SECONDS = 5.0


class AiohttpSender:
    """At most `max_connections` connections; a request beyond them waits for one inside aiohttp. Its session is
    opened by the first request (aiohttp wants a running loop); `aclose` closes it."""

    def __init__(self, headers: dict[str, str], timeout: float, max_connections: int) -> None:
        """`headers`: sent with every request; `timeout`: seconds, for connecting and for each read of the socket."""
        self._headers = headers
        self._timeout = per_phase(timeout, timeout)
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None

    def _opened(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self._max_connections, keepalive_timeout=IDLE_SECONDS)
            # The body is passed on as the server sent it (httpx.Response decodes it, as httpx would have).
            self._session = aiohttp.ClientSession(
                connector=connector, headers=self._headers, timeout=self._timeout, auto_decompress=False
            )
        return self._session

    async def send(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        timeout: aiohttp.ClientTimeout | None = None,
    ) -> httpx.Response:
        """The answer, whatever its status; `timeout` (`per_phase`) in place of the sender's own."""
        try:
            async with self._opened().request(
                method, url, headers=headers, data=body, timeout=timeout or self._timeout
            ) as answer:
                content = await answer.read()
        except aiohttp.ClientError as error:
            raise as_httpx_error(error) from error
        except TimeoutError as error:
            raise httpx.ReadTimeout(f"{method} {url}: no answer in time") from error
        # With its request, as httpx answers (`raise_for_status` reads it).
        request = httpx.Request(method, url)
        return httpx.Response(answer.status, headers=answer.raw_headers, content=content, request=request)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


class AiohttpTransport(httpx.AsyncBaseTransport):
    """An httpx transport over `AiohttpSender`: the client's API, its requests, answers and exceptions are httpx's,
    the bytes go through aiohttp. Each request's time-outs are the client's (connect and read; httpx's pool
    time-out has no counterpart: a request waits for a connection inside aiohttp)."""

    def __init__(self, *, max_connections: int = 100) -> None:
        self._sender = AiohttpSender({}, 5.0, max_connections)  # httpx's default time-out, used when none is set

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeouts = request.extensions.get("timeout", {})
        body = await request.aread()
        return await self._sender.send(
            request.method,
            str(request.url),
            dict(request.headers),
            body or None,
            per_phase(timeouts.get("connect"), timeouts.get("read")),
        )

    async def aclose(self) -> None:
        await self._sender.aclose()


def per_phase(connect: float | None, read: float | None) -> aiohttp.ClientTimeout:
    """Time-outs as httpx counts them: connecting, and each read of the socket (an answer that keeps coming is not
    cut); None: no bound."""
    return aiohttp.ClientTimeout(total=None, connect=connect, sock_read=read)


def as_httpx_error(error: aiohttp.ClientError) -> httpx.TransportError:
    """The httpx exception for what went wrong, as every caller catches them: a connection closed unanswered as
    the request went out is `RemoteProtocolError` (the internal client sends it again when that is safe), the rest
    as httpx names them."""
    message = f"{type(error).__name__}: {error}"
    if isinstance(error, aiohttp.ServerDisconnectedError):
        return httpx.RemoteProtocolError(message)
    if isinstance(error, aiohttp.ConnectionTimeoutError):
        return httpx.ConnectTimeout(message)
    if isinstance(error, aiohttp.ServerTimeoutError):
        return httpx.ReadTimeout(message)
    if isinstance(error, aiohttp.ClientConnectorError):
        return httpx.ConnectError(message)
    return httpx.ReadError(message)
