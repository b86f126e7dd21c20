"""Errors in one format for every API: `application/problem+json` with a stable machine-readable code."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

PROBLEM_JSON = "application/problem+json"


class ProblemError(Exception):
    """A refusal the caller can act on: HTTP status, stable code, human message, optional details, and the
    headers the answer must carry (`Retry-After`, `WWW-Authenticate`)."""

    status: int = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.headers = headers or {}
        self.details = details


class NotFound(ProblemError):
    status = 404


class Conflict(ProblemError):
    status = 409


class Forbidden(ProblemError):
    status = 403


class Unavailable(ProblemError):
    status = 503


def problem(status: int, code: str, message: str, **details: Any) -> JSONResponse:
    body = {"type": f"urn:problem:{code}", "title": message, "status": status, "code": code, **details}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    429: "rate_limited",
}


#: The wait a 429 or 503 asks for when its raiser named none: every refusal for overload says when to come back
#: (clients that honour it spread their retries instead of hammering a busy service).
DEFAULT_RETRY_AFTER_SECONDS = 1
_SAY_WHEN = frozenset({429, 503})


def problem_response(exc: ProblemError) -> JSONResponse:
    """The answer to a raised problem: its status, body and headers, and Retry-After on a 429 or 503."""
    response = problem(exc.status, exc.code, exc.message, **exc.details)
    response.headers.update(exc.headers)
    if exc.status in _SAY_WHEN and "retry-after" not in response.headers:
        response.headers["Retry-After"] = str(DEFAULT_RETRY_AFTER_SECONDS)
    return response


def install_handlers(app: FastAPI) -> None:
    async def on_problem(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ProblemError)
        return problem_response(exc)

    async def on_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [
            {
                "field": ".".join(str(p) for p in e.get("loc", ())),
                "code": e.get("type"),
                "message": e.get("msg"),
            }
            for e in exc.errors()
        ]
        return problem(422, "validation_failed", "The request is not valid.", errors=errors)

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _STATUS_CODES.get(exc.status_code, f"http_{exc.status_code}")
        response = problem(exc.status_code, code, str(exc.detail))
        for key, value in (exc.headers or {}).items():
            response.headers[key] = value
        return response

    async def on_pool_exhausted(_: Request, exc: Exception) -> JSONResponse:
        # Every connection of the pool stayed busy for the pool's timeout: overload. The transaction that waited
        # never started; money moves carry Idempotency-Keys, so retrying the whole request is safe.
        response = problem(503, "database_busy", "The service is busy; retry shortly.")
        response.headers["Retry-After"] = str(DEFAULT_RETRY_AFTER_SECONDS)
        return response

    async def on_database_error(_: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, DBAPIError) and not could_not_connect(exc):
            raise exc  # a failing statement is a fault (500, logged), not overload
        # The server refused a new connection (its max_connections reached, starting up, shutting down) or is
        # unreachable (asyncpg's refused connect arrives as a bare ConnectionError: the services' other network
        # calls raise httpx's and aio-pika's own errors). Nothing ran, as with an exhausted pool: the caller
        # may retry the whole request.
        response = problem(503, "database_unavailable", "The service cannot reach its database; retry shortly.")
        response.headers["Retry-After"] = str(DEFAULT_RETRY_AFTER_SECONDS)
        return response

    app.add_exception_handler(ProblemError, on_problem)
    app.add_exception_handler(PoolTimeout, on_pool_exhausted)
    app.add_exception_handler(DBAPIError, on_database_error)
    app.add_exception_handler(ConnectionError, on_database_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)


#: SQLSTATE classes of a server refusing a connection: 53 insufficient resources (too many connections, of the
#: server or of the role), 57P03 cannot connect now (starting up or shutting down); 08 connection exceptions.
_REFUSED_CONNECTION_STATES = ("53", "57P03", "08")


def could_not_connect(error: DBAPIError) -> bool:
    """Whether `error` is the database refusing or failing to open a connection, not a statement failing."""
    cause: BaseException | None = error.orig
    while cause is not None:
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state.startswith(_REFUSED_CONNECTION_STATES):
            return True
        cause = cause.__cause__
    return False
