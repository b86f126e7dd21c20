"""The problem answers of the OpenAPI document: what an operation may answer besides its success, each as
`application/problem+json` with a stable `code`.

Every `/api` operation declares the answers that follow from its shape, so that no route has to repeat them:
422 and 429 (every request is validated and rate-limited), 401 and 403 unless it is public, 400 when it reads a
body or an `Idempotency-Key`, 413 when it reads a body, 404 when its path names something. Besides those, a route or a router declares its
own refusals with `refusals(...)`, or `RELAYED` for the proxies (whatever the owning service refuses is passed
on unchanged); `describe_problems` gives all of them the problem content and headers.
"""

from __future__ import annotations

from typing import Any

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details; `code` is stable and meant for programs.",
    "properties": {
        "type": {"type": "string", "example": "urn:problem:nickname_taken"},
        "title": {"type": "string", "example": "This nickname is already taken on the network."},
        "status": {"type": "integer", "example": 409},
        "code": {"type": "string", "example": "nickname_taken"},
        "errors": {
            "type": "array",
            "description": "`validation_failed`: each invalid field, with its own code.",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "code": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
    "required": ["type", "title", "status", "code"],
}
_PROBLEM_CONTENT = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
# The headers that come with these answers, always (gateway.service.errors).
_HEADERS = {
    "401": {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}, "description": "`Bearer` challenge"}},
    "429": {"Retry-After": {"required": True, "schema": {"type": "integer", "minimum": 0}, "description": "Seconds"}},
}

BAD_REQUEST = "The body is not JSON (`bad_request`), or the Idempotency-Key is missing or malformed"
UNAUTHENTICATED = "Missing or invalid credentials"
FORBIDDEN = "The caller may not do this"
NOT_FOUND = "Nothing of that id, or nothing the caller may see: both answer alike"
TOO_LARGE = "The body is larger than this route accepts (`request_too_large`, platform_kit.edge)"
INVALID = "Invalid request (`validation_failed`, with the fields)"
RATE_LIMITED = "Rate limited: retry after `Retry-After` seconds"
FASTAPI_422 = "Validation Error"


def refusals(answers: dict[int | str, str]) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route or a router: its problem answers by status, with what they mean."""
    return {status: {"description": text} for status, text in answers.items()}


RELAYED = refusals(
    {
        "4XX": "A refusal of the owning service, passed on unchanged (its `code` says which)",
        502: "The owning service cannot be reached or failed (`upstream_unreachable`, `upstream_failed`)",
        503: "The owning service is unavailable for now, passed on unchanged",
        504: "The owning service did not answer in time (`upstream_timeout`)",
    }
)


def describe_problems(operation: dict[str, Any], path: str, *, public: bool) -> None:
    """Declare the answers that follow from the operation's shape, and give every problem answer of the
    operation (those and the route's own) the problem content and its headers."""
    responses: dict[str, Any] = operation.setdefault("responses", {})
    for status, text in _answers_from_shape(operation, path, public=public).items():
        responses.setdefault(status, {"description": text})
    if responses["422"].get("description") == FASTAPI_422:
        responses["422"]["description"] = INVALID
    for status, answer in responses.items():
        if status[0] in "45":
            # Replaces FastAPI's own 422 (an `application/json` body the kit's handler never sends).
            answer["content"] = _PROBLEM_CONTENT
            if status in _HEADERS:
                answer["headers"] = _HEADERS[status]


def _answers_from_shape(operation: dict[str, Any], path: str, *, public: bool) -> dict[str, str]:
    answers = {}
    parameters = operation.get("parameters", [])
    if "requestBody" in operation or any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in parameters):
        answers["400"] = BAD_REQUEST
    if "requestBody" in operation:
        answers["413"] = TOO_LARGE
    if not public:
        answers |= {"401": UNAUTHENTICATED, "403": FORBIDDEN}
    if "{" in path:
        answers["404"] = NOT_FOUND
    return answers | {"422": INVALID, "429": RATE_LIMITED}
