"""The gateway's public API as the e2e players and staff use it: REST with a bearer token, and WebSocket streams,
both carried through service restarts.

A call that cannot reach its service (connection refused or reset, a timeout, or the gateway's own 502/503/504
while the service behind it restarts) is retried for up to `retry_for` seconds, with the *same* Idempotency-Key:
a money move retried after a lost answer must not happen twice. A refusal (any other 4xx/5xx problem) is raised
as `ApiError` at once.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from gateway.domain.lobby_digest import unpacked
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

API = "/api/v1"
#: The gateway's own answers while the service behind it is away.
UNAVAILABLE = frozenset({502, 503, 504})


class ApiError(Exception):
    """A problem+json refusal; `code` is the platform's stable code."""

    def __init__(self, status: int, body: Any, what: str) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {"detail": body}
        self.code = str(self.body.get("code", f"http_{status}"))
        super().__init__(f"{what}: {status} {self.code}: {self.body.get('detail') or self.body.get('title', '')}")


class Unreachable(Exception):
    """The call kept failing for lack of a service for longer than the client waits."""


@dataclass(frozen=True)
class Credentials:
    login: str
    password: str
    staff: bool = False


async def retrying(http: httpx.AsyncClient, request: httpx.Request, retry_for: float) -> httpx.Response:
    """Send `request` until a service answers it (anything but a gateway 502/503/504) or `retry_for` passes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + retry_for
    pause = 0.1
    while True:
        try:
            answer = await http.send(request)
            if answer.status_code not in UNAVAILABLE:
                return answer
            last = f"{answer.status_code} {answer.text[:200]}"
        except httpx.TransportError as error:  # refused, reset, timed out: the service is (re)starting
            last = repr(error)
        if loop.time() + pause > deadline:
            raise Unreachable(f"{request.method} {request.url}: still unavailable after {retry_for:.0f} s ({last})")
        await asyncio.sleep(pause)
        pause = min(pause * 2, 1.0)


class Session:
    """One principal's session with the gateway: a player or a staff member."""

    def __init__(self, http: httpx.AsyncClient, base_url: str, *, retry_for: float = 60.0) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.retry_for = retry_for
        self.credentials: Credentials | None = None
        self.principal: dict[str, Any] = {}
        self._token: str | None = None

    @property
    def player_id(self) -> str:
        return str(self.principal["id"])

    @property
    def token(self) -> str | None:
        return self._token

    async def sign_up(self, nickname: str, password: str, *, concessionaire: str, birth_date: str) -> None:
        body = {
            "concessionaire": concessionaire,
            "nickname": nickname,
            "email": f"{nickname.lower()}@e2e.example",
            "date_of_birth": birth_date,
            "password": password,
        }
        self._started(await self.call("POST", "/auth/signup", json=body, auth=False))
        self.credentials = Credentials(nickname, password)

    async def log_in(self, credentials: Credentials) -> None:
        if credentials.staff:
            body = {"email": credentials.login, "password": credentials.password}
            self._started(await self.call("POST", "/auth/staff/login", json=body, auth=False))
        else:
            body = {"login": credentials.login, "password": credentials.password}
            self._started(await self.call("POST", "/auth/login", json=body, auth=False))
        self.credentials = credentials

    def _started(self, answer: Any) -> None:
        self._token = answer["access_token"]
        self.principal = answer["principal"]

    async def call(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        key: str | None = None,
        auth: bool = True,
    ) -> Any:
        """`key`: the Idempotency-Key of a money move (`new_key()`); kept across retries of this call."""
        headers = {"Idempotency-Key": key} if key else {}
        if auth:
            headers["Authorization"] = f"Bearer {self._token}"
        params = {name: value for name, value in (params or {}).items() if value is not None}
        request = self.http.build_request(method, API + path, json=json, params=params, headers=headers)
        answer = await retrying(self.http, request, self.retry_for)
        body: Any = None
        if answer.content and "json" in answer.headers.get("content-type", ""):
            body = answer.json()
        if answer.status_code >= 400:
            if auth and answer.status_code == 401 and self.credentials is not None:
                await self.log_in(self.credentials)  # an expired token: log in again, once
                return await self.call(method, path, json=json, params=params, key=key, auth=auth)
            raise ApiError(answer.status_code, body, f"{method} {path}")
        return body if body is not None else answer.text

    def socket(self, kind: str) -> Stream:
        return Stream(self, kind)


def new_key() -> str:
    return uuid.uuid4().hex


class Stream:
    """A gateway WebSocket (`lobby` or `table`) that reconnects after the gateway restarts and subscribes again
    to its channels. Messages published while it was away are not replayed (a restarted gateway has a new
    epoch): `reconnected` tells the owner to read the state over REST."""

    def __init__(self, session: Session, kind: str) -> None:
        self.session = session
        self.kind = kind
        self.channels: set[str] = set()
        self.reconnected = asyncio.Event()
        self._ws: ClientConnection | None = None

    async def subscribe(self, channel: str) -> None:
        self.channels.add(channel)
        await self.send({"type": "subscribe", "channel": channel})

    async def unsubscribe(self, channel: str) -> None:
        self.channels.discard(channel)
        await self.send({"type": "unsubscribe", "channel": channel})

    async def send(self, frame: dict[str, Any]) -> bool:
        """False when the socket is down (the frame is dropped: a table's clock covers a lost action)."""
        if self._ws is None:
            return False
        try:
            await self._ws.send(json.dumps(frame))
        except WebSocketException:
            return False
        return True

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """The `data` of every channel message, for ever: reconnects (and re-subscribes) whenever it drops."""
        first = True
        while True:
            try:
                await self._connect()
            except (OSError, WebSocketException, ApiError, Unreachable, TimeoutError):
                await asyncio.sleep(0.5)
                continue
            if not first:
                self.reconnected.set()
            first = False
            assert self._ws is not None
            try:
                async for text in self._ws:
                    frame = json.loads(text)
                    kind = frame.get("type")
                    if kind == "ping":
                        await self.send({"type": "pong"})
                    elif kind == "message":
                        for news in unpacked(frame["data"]):  # a lobby message may carry several
                            yield news
                    elif kind == "error":
                        self.refused(frame)
            except WebSocketException:
                pass
            self._ws = None
            await asyncio.sleep(0.3)

    async def _connect(self) -> None:
        url = self.session.base_url.replace("http", "ws", 1) + f"{API}/ws?socket={self.kind}"
        ws = await connect(url, max_queue=None, open_timeout=5)
        await ws.send(json.dumps({"type": "auth", "token": self.session.token}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if welcome.get("type") != "welcome":
            await ws.close()
            if self.session.credentials is not None:  # most likely an expired token
                await self.session.log_in(self.session.credentials)
            raise ApiError(401, welcome, f"{self.kind} socket")
        self._ws = ws
        for channel in sorted(self.channels):
            await self.send({"type": "subscribe", "channel": channel})

    def refused(self, frame: dict[str, Any]) -> None:
        """An `error` frame: a subscription or a command the gateway refused. Ignored here (the e2e players send
        their commands over REST); a subclass that sends commands on the socket counts them."""

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None
