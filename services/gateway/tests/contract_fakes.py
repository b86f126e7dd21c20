"""The platform's other services faked from their own OpenAPI documents: every call the gateway makes is answered
with a success the owning service's contract declares for it (each of its 2xx statuses in turn, its content type,
a body valid for its schema). So a test of the gateway's document checks what the gateway declares against what
the services really answer, not against an answer made up for the test.

A call that no operation of the service's document takes is answered 404 and kept in `unknown`: the gateway
asked for something the service does not have.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from fake_services import SERVICE_OF_PORT, problem
from platform_runner.contracts import openapi_documents

JSON = "application/json"
INSTANT, DAY = "2026-03-01T12:00:00Z", "2026-03-01"
# Tried in turn for a string with a pattern (the services' ids, codes and amounts).
_PATTERN_CANDIDATES = ("x", "EUR", "0", "1.00", "a-1", INSTANT, DAY, "P1D", "00000000-0000-0000-0000-000000000000")


@dataclass(frozen=True, slots=True)
class Operation:
    service: str
    method: str
    path: str  # the path template, as the document has it
    pattern: re.Pattern[str]
    responses: dict[str, Any]
    document: dict[str, Any]

    def successes(self) -> list[str]:
        return sorted(status for status in self.responses if status.startswith("2"))

    def schema_of(self, status: str) -> tuple[str, dict[str, Any]]:
        """The media type and schema of one of its answers. Of several media types, the last: FastAPI lists
        the one a route declares itself (`application/toml` for a PHH file) after its response class's
        default (`text/plain`), which such a route never sends."""
        content = self.responses[status].get("content") or {JSON: {"schema": {}}}
        media_type = list(content)[-1]
        return media_type, content[media_type].get("schema", {})


@dataclass(frozen=True, slots=True)
class Call:
    operation: Operation
    status: int


@dataclass
class ContractFakes:
    operations: list[Operation]
    calls: list[Call] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    _turns: dict[int, Iterator[str]] = field(default_factory=dict)

    @classmethod
    def of_the_platform(cls) -> ContractFakes:
        documents = {service: doc for service, doc in openapi_documents().items() if service != "gateway"}
        return cls([op for service, doc in documents.items() for op in _operations(service, doc)])

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._answer)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        service = SERVICE_OF_PORT.get(request.url.port or 0, "unknown")
        path = request.url.raw_path.decode().split("?", 1)[0]
        operation = next(
            (
                op
                for op in self.operations
                if op.service == service and op.method == request.method and op.pattern.fullmatch(path)
            ),
            None,
        )
        if operation is None:
            self.unknown.append(f"{service} {request.method} {path}")
            return problem(404, "not_found")
        turn = self._turns.setdefault(id(operation), itertools.cycle(operation.successes()))
        status = next(turn)
        self.calls.append(Call(operation, int(status)))
        media_type, schema = operation.schema_of(status)
        if int(status) == 204:
            return httpx.Response(204)
        body = instance_of(schema, operation.document)
        content = json.dumps(body) if media_type.endswith("json") else str(body)
        return httpx.Response(int(status), content=content, headers={"content-type": media_type})


def _operations(service: str, document: dict[str, Any]) -> Iterator[Operation]:
    for path, methods in document["paths"].items():
        # A path parameter is one segment: the gateway quotes the ids it puts in a path (`relay.segment`).
        pattern = re.compile("[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]+\}", path)))
        for method, operation in methods.items():
            yield Operation(service, method.upper(), path, pattern, operation.get("responses", {}), document)


def instance_of(schema: dict[str, Any], document: dict[str, Any]) -> Any:
    """A small value valid for `schema` (its required fields only; one item per list)."""
    if "$ref" in schema:
        return instance_of(_resolve(schema["$ref"], document), document)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if combinator in schema:
            options = [s for s in schema[combinator] if s.get("type") != "null"] or schema[combinator]
            return instance_of(options[0], document)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        return {name: instance_of(properties.get(name, {}), document) for name in schema.get("required", [])}
    if kind == "array":
        item = instance_of(schema.get("items", {}), document)
        return [] if schema.get("maxItems") == 0 else [item] * max(schema.get("minItems", 1), 1)
    if kind == "string":
        return _string(schema)
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1)
        return int(low) if kind == "integer" else float(low)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return {}


def _string(schema: dict[str, Any]) -> str:
    if schema.get("format") == "date-time":
        return INSTANT
    if schema.get("format") == "date":
        return DAY
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])
        return next((c for c in _PATTERN_CANDIDATES if pattern.search(c)), "x")
    return "x" * max(schema.get("minLength", 1), 1)


def _resolve(reference: str, document: dict[str, Any]) -> dict[str, Any]:
    found: Any = document
    for part in reference.removeprefix("#/").split("/"):
        found = found[part]
    assert isinstance(found, dict)
    return found
