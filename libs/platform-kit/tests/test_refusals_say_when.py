"""Every refusal for overload says when to come back: a 503 or 429 answered by the kit carries Retry-After, the
raiser's own wait when it named one, one second otherwise. Clients and the gateway (which relays the header)
wait it out and repeat the request under the same Idempotency-Key; without it a client cannot tell "busy, come
back" from "broken" (the capacity harness's bots gave up on a sit'n'go rush for that reason)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from platform_kit.errors import ProblemError, Unavailable, install_handlers


def _app() -> FastAPI:
    app = FastAPI()
    install_handlers(app)

    @app.get("/unavailable")
    async def unavailable() -> None:
        raise Unavailable("wallet_unavailable", "The wallet cannot be reached; try again.")

    @app.get("/limited")
    async def limited() -> None:
        raise ProblemError("rate_limited", "Slow down.", status=429)

    @app.get("/named")
    async def named() -> None:
        raise Unavailable("draining", "Restarting.", headers={"Retry-After": "7"})

    @app.get("/conflict")
    async def conflict() -> None:
        raise ProblemError("already_registered", "Registered.", status=409)

    return app


@pytest.mark.parametrize(
    ("path", "status", "retry_after"),
    [("/unavailable", 503, "1"), ("/limited", 429, "1"), ("/named", 503, "7"), ("/conflict", 409, None)],
)
async def test_a_503_or_429_carries_retry_after(path: str, status: int, retry_after: str | None) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=_app()), base_url="http://svc.test") as http:
        answer = await http.get(path)
    assert answer.status_code == status
    assert answer.headers.get("retry-after") == retry_after
    assert answer.headers["content-type"] == "application/problem+json"
