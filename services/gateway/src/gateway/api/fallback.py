"""What the gateway answers to an HTTP request that no route takes, before the web client's static mount at `/`
sees it: 405 for a known path asked with a method it does not have, with an `Allow` header listing every method
the path has; 404 for any other path under `/api`.

Left to the framework, both go wrong here. Its 405 comes from the first route matching the path and lists that
route's methods only, while `GET /players` and `POST /players` are two routes. And the static mount takes every
request that no route took fully: a `GET` on a POST-only API path became the mount's 404 and any other method its
405 with `Allow: GET, HEAD`, the methods of the web client's files, not of the API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette._utils import get_route_path  # how Starlette's own routes read the path (under a root path too)
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match, compile_path
from starlette.types import Receive, Scope, Send

from gateway.api.routes import API_PREFIX


@dataclass(frozen=True, slots=True)
class _KnownPath:
    pattern: re.Pattern[str]
    methods: frozenset[str]


class ApiFallback(BaseRoute):
    """Takes the HTTP requests whose path some route has (none of them with the request's method: a request one
    of them takes never gets here, the router stops at the first full match) and those under `/api`."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app
        self._known: list[_KnownPath] | None = None

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        path = get_route_path(scope)
        if path == API_PREFIX or path.startswith(f"{API_PREFIX}/") or self.methods_of(scope):
            return Match.FULL, {}
        return Match.NONE, {}

    def methods_of(self, scope: Scope) -> set[str]:
        """Every method the app's routes have for the request's path."""
        path = get_route_path(scope)
        return {method for known in self._known_paths() if known.pattern.match(path) for method in known.methods}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The kit's handler answers both as problem+json (`method_not_allowed`, `not_found`), with the header.
        methods = self.methods_of(scope)
        if methods:
            raise HTTPException(405, headers={"Allow": ", ".join(sorted(methods))})
        raise HTTPException(404)

    def _known_paths(self) -> list[_KnownPath]:
        """Read from the app at the first request, once every route is in place. WebSocket routes have no
        methods, the static mount has no path of its own: neither counts."""
        if self._known is None:
            self._known = [
                _KnownPath(compile_path(context.path)[0], frozenset(context.methods))
                for context in iter_route_contexts(self._app.routes)
                if context.path and context.methods
            ]
        return self._known


def install_api_fallback(app: FastAPI) -> None:
    """Call after the last route, before the web client's mount."""
    app.router.routes.append(ApiFallback(app))
