"""The public API as a bot (or any Python client) uses it: REST with a bearer token that refreshes itself, and
the WebSocket streams. Nothing here reaches past `/api/v1`."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

API = "/api/v1"


class ApiError(Exception):
    """A problem+json answer: `code` is the platform's stable code."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {}
        self.code = str(self.body.get("code", f"http_{status}"))
        super().__init__(f"{status} {self.code}: {self.body.get('title', '')}")


@dataclass(frozen=True, slots=True)
class Credentials:
    nickname: str
    password: str


class PublicApi:
    def __init__(self, base_url: str, *, http: httpx.AsyncClient | None = None, timeout: float = 15.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = http or httpx.AsyncClient(base_url=self.base_url, timeout=timeout)
        self._owns_http = http is None
        self._access: str | None = None
        self._refresh: str | None = None
        self.principal: dict[str, Any] = {}

    @property
    def player_id(self) -> str:
        return str(self.principal["id"])

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    # -- sessions -----------------------------------------------------------------------------------------------
    async def sign_up(
        self, credentials: Credentials, *, concessionaire: str = "demo", house_signature: str | None = None
    ) -> None:
        """`house_signature`: a house bot's, over its nickname (gateway.domain.bot_names)."""
        body = {
            "concessionaire": concessionaire,
            "nickname": credentials.nickname,
            "email": f"{credentials.nickname.lower()}@bots.example",
            "date_of_birth": "1990-01-01",
            "password": credentials.password,
        }
        if house_signature is not None:
            body["house_signature"] = house_signature
        self._start(await self._send("POST", "/auth/signup", json=body, auth=False))

    async def log_in(self, credentials: Credentials) -> None:
        body = {"login": credentials.nickname, "password": credentials.password}
        self._start(await self._send("POST", "/auth/login", json=body, auth=False))

    async def log_in_staff(self, email: str, password: str) -> None:
        body = {"email": email, "password": password}
        self._start(await self._send("POST", "/auth/staff/login", json=body, auth=False))

    async def access_token(self) -> str:
        if self._access is None:
            await self._refresh_session()
        assert self._access is not None
        return self._access

    def _start(self, answer: Any) -> None:
        self._access, self._refresh = answer["access_token"], answer["refresh_token"]
        self.principal = answer["principal"]

    async def _refresh_session(self) -> None:
        if self._refresh is None:
            raise ApiError(401, {"code": "not_logged_in"})
        self._start(await self._send("POST", "/auth/refresh", json={"refresh_token": self._refresh}, auth=False))

    # -- REST ---------------------------------------------------------------------------------------------------
    async def call(
        self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None, money: bool = False
    ) -> Any:
        """`money`: send an Idempotency-Key (a fresh one per call: each call is one intended operation)."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if money else {}
        try:
            return await self._send(method, path, json=json, params=params, headers=headers)
        except ApiError as error:
            if error.code != "token_expired":
                raise
        await self._refresh_session()
        return await self._send(method, path, json=json, params=params, headers=headers)

    async def _send(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        auth: bool = True,
    ) -> Any:
        sent = dict(headers or {})
        if auth:
            sent["Authorization"] = f"Bearer {await self.access_token()}"
        response = await self._http.request(method, API + path, json=json, params=params, headers=sent)
        body: Any = None
        if response.content and response.headers.get("content-type", "").endswith("json"):
            body = response.json()
        if response.status_code >= 400:
            raise ApiError(response.status_code, body)
        return body if body is not None else response.text

    # -- streams ------------------------------------------------------------------------------------------------
    def socket(self, kind: str) -> Socket:
        return Socket(self, kind)


class Socket:
    """`async with api.socket("table") as socket:` — authenticated; `frames()` answers the server's pings."""

    def __init__(self, api: PublicApi, kind: str) -> None:
        self._api = api
        self._kind = kind
        self._ws: ClientConnection | None = None

    async def __aenter__(self) -> Socket:
        url = self._api.base_url.replace("http", "ws", 1) + f"{API}/ws?socket={self._kind}"
        self._ws = await connect(url, max_queue=None)
        await self.send({"type": "auth", "token": await self._api.access_token()})
        welcome = json.loads(await self._ws.recv())
        if welcome.get("type") != "welcome":
            raise ApiError(401, {"code": "socket_refused", "title": str(welcome)})
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._ws is not None:
            await self._ws.close()

    async def send(self, frame: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(frame))

    async def subscribe(self, channel: str, *, history: bool = False) -> None:
        """`history`: also the messages the channel still keeps (a table's hand in progress)."""
        await self.send({"type": "subscribe", "channel": channel, "history": history})

    async def unsubscribe(self, channel: str) -> None:
        await self.send({"type": "unsubscribe", "channel": channel})

    async def frames(self) -> AsyncIterator[dict[str, Any]]:
        """Every frame but pings (answered here); ends when the server closes the socket."""
        assert self._ws is not None
        async for text in self._ws:
            frame = json.loads(text)
            if frame.get("type") == "ping":
                await self.send({"type": "pong"})
                continue
            yield frame
