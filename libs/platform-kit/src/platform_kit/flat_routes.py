"""A router's routes served as the app's own: the same routes, found without walking a tree on every request.

Why: since 0.137, FastAPI's `include_router` keeps the included router as a node of a tree. A request walks it
twice (once to find that the router has a match, once more to pick the route and hand it over), setting and
restoring a routing context around every candidate route each time, and goes through every router before the one
that answers. Served flat, a request costs one regular-expression match a route before the right one: 23-42 µs
less a wallet request, 13-91 µs less a gateway one (bench/bench_request_overhead.py, issue 14).

An `APIRoute` made by an `APIRouter` already carries what the router gives its routes — its prefix, dependencies,
tags, answers, response class, body limit — so the same route objects are appended to the app's routes: the
URLs, the checks each route runs and the OpenAPI document stay what they were. What an inclusion itself adds is
not carried, so it takes no options: a router is to declare its prefix, dependencies and answers itself; a
router holding other routers (or anything but FastAPI's own routes) is refused rather than half-flattened. Nor
does `app.dependency_overrides` reach these routes, as it reaches included ones (no service uses it).
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute


def include_flat(app: FastAPI, router: APIRouter) -> None:
    """Serve `router`'s routes as the app's own, after the app's routes so far (FastAPI tries them in order)."""
    for route in router.routes:
        if not isinstance(route, APIRoute | APIWebSocketRoute):
            raise TypeError(f"{route!r} is not a route of FastAPI's own: include its router with include_router")
    app.router.routes.extend(router.routes)
