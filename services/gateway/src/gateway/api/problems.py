"""Error answers the kit's handlers do not cover: problems with headers (401, 429) and downstream problems
relayed unchanged. Every error still leaves as `application/problem+json` with a stable `code`."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from platform_kit.errors import PROBLEM_JSON, problem

from gateway.adapters.service_client import DownstreamProblem
from gateway.service.errors import ProblemWithHeaders


def install_problem_handlers(app: FastAPI) -> None:
    async def with_headers(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ProblemWithHeaders)
        response = problem(error.status, error.code, error.message, **error.details)
        response.headers.update(error.headers)
        return response

    async def downstream(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, DownstreamProblem)
        return JSONResponse(error.body, status_code=error.status, media_type=PROBLEM_JSON, headers=error.headers)

    # Starlette picks the most specific handler along the exception's class hierarchy, so this one wins over
    # the kit's handler for ProblemError.
    app.add_exception_handler(ProblemWithHeaders, with_headers)
    app.add_exception_handler(DownstreamProblem, downstream)
