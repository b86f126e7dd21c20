"""One HTTP attempt at a partner's endpoint: a POST through httpx with a bounded timeout and no redirects,
answered by a status code or a short error (never an exception).

Unless private addresses are allowed, the host's addresses are resolved first and the attempt is refused when
one of them is loopback, private or reserved: a public name pointed at an internal address after it was
registered does not turn the gateway into a tunnel into its own network. The transport and the resolver are
injectable (tests serve a MockTransport or a receiver on 127.0.0.1).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from gateway.domain.webhook_urls import UrlPolicy

Resolver = Callable[[str, int], Awaitable[list[str]]]


@dataclass(frozen=True, slots=True)
class Answer:
    status_code: int | None  # None: no HTTP answer (timeout, connection refused, address refused)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


async def resolve(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class WebhookSender:
    def __init__(
        self,
        urls: UrlPolicy,
        *,
        timeout: float,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver = resolve,
    ) -> None:
        self._urls = urls
        self._resolver = resolver
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout), transport=transport, follow_redirects=False, trust_env=False
        )

    async def send(self, url: str, headers: dict[str, str], body: bytes) -> Answer:
        refused = await self._address_refused(url)
        if refused:
            return Answer(None, refused)
        try:
            response = await self._client.post(url, content=body, headers=headers)
        except httpx.TimeoutException:
            return Answer(None, "timeout")
        except httpx.HTTPError as error:
            return Answer(None, f"connection failed: {type(error).__name__}")
        return Answer(response.status_code)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _address_refused(self, url: str) -> str | None:
        if self._urls.allow_private:
            return None
        parts = urlsplit(url)
        host = parts.hostname or ""
        try:
            addresses = await self._resolver(host, parts.port or (443 if parts.scheme == "https" else 80))
        except OSError:
            return "host not found"
        if not addresses or not all(self._urls.address_allowed(address) for address in addresses):
            return "address refused: loopback, private or reserved"
        return None
