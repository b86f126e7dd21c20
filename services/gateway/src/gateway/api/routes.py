"""The `/api` routes and their access declarations: found by walking the app, for the OpenAPI document (each
operation says who may call it, and its problem answers: `problem_answers`) and for the test that fails when a
route declares nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.encoders import jsonable_encoder
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts
from starlette.routing import compile_path

from gateway.api.access import AccessPolicy, policy_of
from gateway.api.problem_answers import PROBLEM_SCHEMA, describe_problems

API_PREFIX = "/api"


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
            schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
            for route in api_routes(app):
                path = document_path(route.path)
                for method in route.methods:
                    operation = schema["paths"].get(path, {}).get(method.lower())
                    if operation is not None:
                        _describe(operation, path, route.policies)
                        _restore_examples(operation, route.route)
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]


def document_path(path: str) -> str:
    """A route's path as the document writes it: `/tables/{table_id:path}` is `/tables/{table_id}` there."""
    return compile_path(path)[1]


def _describe(operation: dict[str, Any], path: str, policies: list[AccessPolicy]) -> None:
    if not policies:
        return
    who = "; ".join(policy.describe() for policy in policies)
    operation["description"] = f"{operation.get('description', '')}\n\n**Who may call:** {who}.".strip()
    describe_problems(operation, path, public=all(policy.public for policy in policies))


def _restore_examples(operation: dict[str, Any], route: APIRoute | APIWebSocketRoute) -> None:
    """FastAPI writes the document without its null values, so the nulls of an example (`"next_cursor": null`)
    would be lost and the example would no longer be a valid answer: they are put back as the route has them."""
    for status, answer in getattr(route, "responses", {}).items():
        for media_type, content in (answer.get("content") or {}).items():
            if "example" in content:
                documented = operation["responses"][str(status)]["content"][media_type]
                documented["example"] = jsonable_encoder(content["example"])
