"""The Idempotency-Key, as every API of the platform reads it, and the answer to a keyed request.

One rule everywhere: a key the gateway accepts is accepted by every service it relays it to (one length, one
shape, the same codes: 400 `idempotency_key_required`, 400 `idempotency_key_invalid`), never refused after the
gateway has relayed part of the work. Services use these dependencies and never declare their own
(tests/test_kit_plumbing.py checks).

    @router.post("/draws/{draw_id}/coupons")
    async def place(key: IdempotencyKey, ...) -> JSONResponse:
        outcome = ...  # run once per key
        return keyed_answer(outcome.status, outcome.body, replayed=outcome.replayed)
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header
from fastapi.responses import JSONResponse

from platform_kit.errors import PROBLEM_JSON, ProblemError

IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"

MAX_KEY_LENGTH = 100
"""A caller's key: what a client sends the gateway, which every service behind it receives as it is (the
totalizator stores it in a column of this size)."""

MAX_SERVICE_KEY_LENGTH = 200
"""A key a service composes for the wallet: a caller's key (at most MAX_KEY_LENGTH) inside the caller's scope
and the ids it is for, e.g. `totalizator:stake:<player id>:<key>`. The wallet's ledger stores up to this."""

IdempotencyKeyHeader = Annotated[
    str | None,
    Header(
        alias=IDEMPOTENCY_KEY_HEADER,
        description="A unique value per intended operation (a UUID is fine); a retry with the same key returns the "
        "first answer instead of moving money twice.",
        examples=["7f1c0a9e-1c2b-4c52-9a57-0e8f1f6f4a11"],
    ),
]
"""The header as declared, unchecked: for a dependency that reads the key beside other headers in one node, and
checks it with `required_key` or `required_service_key`. FastAPI solves each sub-dependency anew on every request
(a route's hottest path pays a few per cent of its CPU for each: issue 14); the dependencies below are the
shorthand for every other route."""


def _checked(key: str, max_length: int) -> str:
    """A key has 1 to `max_length` printable ASCII characters (it travels on as a header); 400
    `idempotency_key_invalid` otherwise."""
    if not 0 < len(key) <= max_length or not key.isascii() or not key.isprintable():
        raise ProblemError(
            "idempotency_key_invalid", f"An {IDEMPOTENCY_KEY_HEADER} has 1 to {max_length} printable ASCII characters."
        )
    return key


def _required(key: str | None, max_length: int) -> str:
    """An absent or empty header: 400 `idempotency_key_required`."""
    if not key:
        raise ProblemError("idempotency_key_required", f"This operation needs an {IDEMPOTENCY_KEY_HEADER} header.")
    return _checked(key, max_length)


def required_key(key: str | None) -> str:
    """The caller's key of an operation that needs one (every money move)."""
    return _required(key, MAX_KEY_LENGTH)


def required_service_key(key: str | None) -> str:
    """The key of a command that services call with keys of their own, composed around a caller's (the
    wallet's): the same rules and codes, up to MAX_SERVICE_KEY_LENGTH."""
    return _required(key, MAX_SERVICE_KEY_LENGTH)


async def idempotency_key(key: IdempotencyKeyHeader = None) -> str:
    return required_key(key)


async def optional_idempotency_key(key: IdempotencyKeyHeader = None) -> str | None:
    """The caller's key where an operation may also run without one. A header that is present is checked as a
    key: an empty one is refused, not taken for none (its sender meant the operation to run once)."""
    return None if key is None else _checked(key, MAX_KEY_LENGTH)


async def service_idempotency_key(key: IdempotencyKeyHeader = None) -> str:
    return required_service_key(key)


def keyed_answer(status: int, body: Any, *, replayed: bool) -> JSONResponse:
    """The answer to a keyed request: the first answer again on a repeat, marked `Idempotent-Replayed: true`;
    a refusal (status 400 or more) keeps its problem+json media type."""
    headers = {REPLAYED_HEADER: "true"} if replayed else None
    media_type = PROBLEM_JSON if status >= 400 else "application/json"
    return JSONResponse(body, status_code=status, headers=headers, media_type=media_type)


IdempotencyKey = Annotated[str, Depends(idempotency_key)]
OptionalIdempotencyKey = Annotated[str | None, Depends(optional_idempotency_key)]
ServiceIdempotencyKey = Annotated[str, Depends(service_idempotency_key)]
