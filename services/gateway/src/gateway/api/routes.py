"""The `/api` routes and their access declarations: found by walking the app, for the OpenAPI document (each
operation says who may call it) and for the test that fails when a route declares nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts

from gateway.api.access import AccessPolicy, policy_of

API_PREFIX = "/api"

_PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details; `code` is stable and meant for programs.",
    "properties": {
        "type": {"type": "string", "example": "urn:problem:nickname_taken"},
        "title": {"type": "string", "example": "This nickname is already taken on the network."},
        "status": {"type": "integer", "example": 409},
        "code": {"type": "string", "example": "nickname_taken"},
    },
    "required": ["type", "title", "status", "code"],
}
_PROBLEM_ANSWERS = {
    "401": "Missing or invalid credentials",
    "403": "The caller may not do this",
    "422": "Invalid request (`validation_failed`, with the fields)",
    "429": "Rate limited: retry after `Retry-After` seconds",
}


@dataclass(frozen=True, slots=True)
class ApiRoute:
    """One `/api` route as the app serves it (full path, with the dependencies of the routers it sits in)."""

    path: str
    methods: frozenset[str]  # empty for a WebSocket route
    route: APIRoute | APIWebSocketRoute
    dependant: Dependant

    @property
    def policies(self) -> list[AccessPolicy]:
        """Every access declaration among the route's dependencies, however deeply nested."""
        found: list[AccessPolicy] = []
        pending = [self.dependant]
        while pending:
            dependant = pending.pop()
            policy = policy_of(dependant.call)
            if policy is not None:
                found.append(policy)
            pending.extend(dependant.dependencies)
        return found


def api_routes(app: FastAPI) -> Iterator[ApiRoute]:
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        path = context.path
        if isinstance(route, APIRoute | APIWebSocketRoute) and path and path.startswith(API_PREFIX):
            dependant = getattr(context, "dependant", None) or route.dependant
            yield ApiRoute(path, frozenset(context.methods or ()), route, dependant)


def document_access(app: FastAPI) -> None:
    """Add to each operation of the OpenAPI document who may call it and its problem answers."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()  # FastAPI keeps it in app.openapi_schema: this runs once
            schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = _PROBLEM_SCHEMA
            for route in api_routes(app):
                for method in route.methods:
                    operation = schema["paths"].get(route.path, {}).get(method.lower())
                    if operation is not None:
                        _describe(operation, route.policies)
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]


def _describe(operation: dict[str, Any], policies: list[AccessPolicy]) -> None:
    if not policies:
        return
    who = "; ".join(policy.describe() for policy in policies)
    operation["description"] = f"{operation.get('description', '')}\n\n**Who may call:** {who}.".strip()
    public = all(policy.public for policy in policies)
    for status, text in _PROBLEM_ANSWERS.items():
        if public and status in ("401", "403"):
            continue
        operation.setdefault("responses", {})[status] = {
            "description": text,
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
