"""Error answers the kit's handlers do not cover: downstream problems relayed unchanged. Every error still
leaves as `application/problem+json` with a stable `code`."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from platform_kit.errors import PROBLEM_JSON

from gateway.adapters.service_client import DownstreamProblem


def install_problem_handlers(app: FastAPI) -> None:
    async def downstream(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, DownstreamProblem)
        return JSONResponse(error.body, status_code=error.status, media_type=PROBLEM_JSON, headers=error.headers)

    app.add_exception_handler(DownstreamProblem, downstream)
