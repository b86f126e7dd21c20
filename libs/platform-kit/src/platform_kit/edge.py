"""The first look at every request, before routing: body size bounded (413) and control characters refused (422).

Pure ASGI, no framework objects: a request without a body costs a scan of its headers, path and query string.
A request with one is read here (as the JSON routes would read it anyway), never beyond its route family's
limit: a declared Content-Length over it is refused before a byte is read, a chunked body is cut off as soon as
it has grown past it. The body then reaches the app exactly as received.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from platform_kit.control_characters import body_fields, path_fields, query_fields
from platform_kit.errors import problem


class BodyLimits:
    """The largest body, in bytes, each route family accepts: the longest matching path prefix wins
    (a prefix matches itself and what lies below it: `/api/v1/auth` matches `/api/v1/auth/login`,
    not `/api/v1/authors`)."""

    def __init__(self, default: int, by_prefix: Mapping[str, int] | None = None) -> None:
        self.default = default
        prefixes = {prefix.rstrip("/"): limit for prefix, limit in (by_prefix or {}).items()}
        self._by_prefix = sorted(prefixes.items(), key=lambda item: len(item[0]), reverse=True)

    def for_path(self, path: str) -> int:
        for prefix, limit in self._by_prefix:
            if path.startswith(prefix) and path[len(prefix) : len(prefix) + 1] in ("", "/"):
                return limit
        return self.default


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


def _declared_length(scope: Scope) -> int | None:
    """The Content-Length, or -1 for a body of unknown length (chunked), or None when there is no body."""
    length: int | None = None
    for name, value in scope["headers"]:
        if name == b"content-length":
            # The server has checked that it is a number (h11 and httptools refuse the request otherwise).
            length = int(value) if value.isdigit() else -1
        elif name == b"transfer-encoding":
            return -1
    return length or None


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        if not message.get("more_body", False):
            return b"".join((*chunks, chunk)) if chunks else chunk  # most bodies come in one message
        chunks.append(chunk)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """The body as one message, then the server's own messages (a disconnect is all that can still come)."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


class EdgeMiddleware:
    def __init__(self, app: ASGIApp, limits: BodyLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        fields = path_fields(scope["path"]) or query_fields(scope["query_string"])
        if fields:
            await _refuse_control_characters(scope, receive, send, fields)
            return
        length = _declared_length(scope) if scope["type"] == "http" else None
        if length is None:
            await self.app(scope, receive, send)
            return
        limit = self.limits.for_path(scope["path"])
        try:
            if length > limit:
                raise _TooLarge
            body = await _read_body(receive, limit)
        except _TooLarge:
            await _too_large(scope, receive, send, limit)
            return
        except _Disconnected:
            return  # nobody is left to answer
        fields = body_fields(body)
        if fields:
            await _refuse_control_characters(scope, receive, send, fields)
            return
        await self.app(scope, _replaying(body, receive), send)


async def _refuse_control_characters(scope: Scope, receive: Receive, send: Send, fields: list[str]) -> None:
    if scope["type"] == "websocket":
        await receive()  # the handshake request; a close before accepting it is answered as HTTP 403
        await send({"type": "websocket.close", "code": 1008, "reason": "control_characters"})
        return
    errors = [
        {"field": field, "code": "control_characters", "message": "Control characters are not allowed."}
        for field in fields
    ]
    response = problem(
        422,
        "control_characters",
        "The request holds control characters (only tab, line feed and carriage return are allowed in text).",
        errors=errors,
    )
    await response(scope, receive, send)


async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    response = problem(413, "request_too_large", f"The request body is larger than {limit} bytes.", limit=limit)
    # The rest of the body is not read: the connection closes after the answer instead of draining it.
    response.headers["connection"] = "close"
    await response(scope, receive, send)
