"""The internal client the proxies will use: forwarded headers, Idempotency-Key pass-through, downstream
problems relayed unchanged, and the gateway's own 502/504 when a service fails or is unreachable."""

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from gateway.adapters.service_client import ServiceClient
from gateway.api.problems import install_problem_handlers
from gateway.domain.roles import Principal, Role
from platform_kit import correlation
from platform_kit.app import CorrelationMiddleware
from platform_kit.errors import Conflict, ProblemError, install_handlers
from platform_kit.idempotency import IdempotencyKey
from platform_kit.internal_client import InternalClient

PLAYER = Principal(Role.PLAYER, "p1", "conc-a", "Mario")


def downstream_wallet() -> FastAPI:
    """A stand-in for a downstream service: echoes what it received, refuses like the real ones do."""
    app = FastAPI()
    install_handlers(app)

    @app.post("/holds")
    async def hold(request: Request) -> dict[str, Any]:
        return {"headers": {k: v for k, v in request.headers.items() if k.startswith("x-") or k == "idempotency-key"}}

    @app.post("/broke")
    async def broke() -> dict[str, str]:
        raise Conflict("insufficient_funds", "The account cannot cover 500 cents.", balance=120, currency="EUR")

    @app.get("/busy")
    async def busy() -> JSONResponse:
        return JSONResponse(
            {"type": "urn:problem:busy", "title": "Busy", "status": 503, "code": "busy"},
            status_code=503,
            media_type="application/problem+json",
            headers={"Retry-After": "7"},
        )

    @app.get("/crash")
    async def crash() -> JSONResponse:
        return JSONResponse({"detail": "boom"}, status_code=500)

    return app


def proxy(client: ServiceClient) -> FastAPI:
    """A gateway-shaped app with one money proxy route, as later proxies will be written."""
    app = FastAPI()
    install_handlers(app)
    install_problem_handlers(app)
    app.add_middleware(CorrelationMiddleware)

    @app.post("/api/v1/holds/{path}")
    async def forward(path: str, key: IdempotencyKey) -> Any:
        return (await client.request("POST", f"/{path}", json={}, idempotency_key=key, principal=PLAYER)).json()

    return app


def wallet_client() -> ServiceClient:
    transport = httpx.ASGITransport(app=downstream_wallet())
    return ServiceClient(InternalClient("http://wallet.test", "secret-token", transport=transport))


async def test_calls_carry_the_internal_token_request_id_idempotency_key_and_principal() -> None:
    client = wallet_client()
    token = correlation.bind("req-123")
    try:
        answer = await client.request("POST", "/holds", json={}, idempotency_key="key-1", principal=PLAYER)
    finally:
        correlation.reset(token)
        await client.aclose()
    assert answer.json()["headers"] == {
        "x-internal-token": "secret-token",
        "x-request-id": "req-123",
        "idempotency-key": "key-1",
        "x-principal-role": "player",
        "x-principal-id": "p1",
        "x-concessionaire-id": "conc-a",
    }


async def test_the_idempotency_key_passes_through_a_proxy_route_and_is_required() -> None:
    app = proxy(wallet_client())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
        answer = await http.post("/api/v1/holds/holds", headers={"Idempotency-Key": "k-42", "X-Request-ID": "r-9"})
        assert answer.status_code == 200
        assert answer.json()["headers"]["idempotency-key"] == "k-42"
        assert answer.json()["headers"]["x-request-id"] == "r-9"
        missing = await http.post("/api/v1/holds/holds")
        assert (missing.status_code, missing.json()["code"]) == (400, "idempotency_key_required")
        too_long = await http.post("/api/v1/holds/holds", headers={"Idempotency-Key": "k" * 256})
        assert too_long.json()["code"] == "idempotency_key_invalid"


async def test_a_downstream_problem_reaches_the_caller_unchanged() -> None:
    app = proxy(wallet_client())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
        answer = await http.post("/api/v1/holds/broke", headers={"Idempotency-Key": "k-1"})
    assert answer.status_code == 409
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json() == {
        "type": "urn:problem:insufficient_funds",
        "title": "The account cannot cover 500 cents.",
        "status": 409,
        "code": "insufficient_funds",
        "balance": 120,
        "currency": "EUR",
    }


async def test_retry_after_of_a_downstream_refusal_is_relayed() -> None:
    client = wallet_client()
    app = FastAPI()
    install_handlers(app)
    install_problem_handlers(app)

    @app.get("/api/v1/busy")
    async def busy() -> Any:
        return (await client.request("GET", "/busy")).json()

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
        answer = await http.get("/api/v1/busy")
    assert (answer.status_code, answer.headers["retry-after"], answer.json()["code"]) == (503, "7", "busy")


async def test_failures_that_are_not_problems_become_the_gateways_own() -> None:
    client = wallet_client()
    app = FastAPI()
    install_handlers(app)
    install_problem_handlers(app)

    @app.get("/api/v1/crash")
    async def crash() -> Any:
        return (await client.request("GET", "/crash")).json()

    unreachable = ServiceClient(InternalClient("http://127.0.0.1:9", "t", timeout=2))

    @app.get("/api/v1/unreachable")
    async def nowhere() -> Any:
        return (await unreachable.request("GET", "/anything")).json()

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
        crashed = await http.get("/api/v1/crash")
        gone = await http.get("/api/v1/unreachable")
    assert (crashed.status_code, crashed.json()["code"], crashed.json()["upstream_status"]) == (
        502,
        "upstream_failed",
        500,
    )
    assert (gone.status_code, gone.json()["code"]) == (502, "upstream_unreachable")
    await unreachable.aclose()


class SilentService:
    """A real TCP server that accepts connections and never answers: a service stuck under load."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.requests = 0

    async def __aenter__(self) -> str:
        async def swallow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.requests += 1
            await reader.read(65536)
            await asyncio.Event().wait()  # never answers; cancelled when the server closes

        self.server = await asyncio.start_server(swallow, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *_: object) -> None:
        assert self.server is not None
        self.server.close()


async def test_a_money_move_the_service_is_slow_to_answer_is_503_with_retry_after_not_504() -> None:
    """Overload degrades: the caller learns within the client's timeout that the outcome is pending and that the
    same request under the same Idempotency-Key will tell it (the owning service keeps the answer per key);
    a read gets the 504 it always did."""
    async with SilentService() as base_url:
        client = ServiceClient(InternalClient(base_url, "t", timeout=0.5))
        app = proxy(client)

        @app.get("/api/v1/read")
        async def read() -> Any:
            return (await client.request("GET", "/anything")).json()

        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
            moved = await http.post("/api/v1/holds/holds", headers={"Idempotency-Key": "k-1"})
            read_back = await http.get("/api/v1/read")
        await client.aclose()
    assert (moved.status_code, moved.json()["code"], moved.headers["retry-after"]) == (503, "outcome_pending", "1")
    assert moved.headers["content-type"] == "application/problem+json"
    assert (read_back.status_code, read_back.json()["code"]) == (504, "upstream_timeout")


async def test_every_connection_to_a_service_busy_is_503_service_busy_and_nothing_is_sent() -> None:
    service = SilentService()
    async with service as base_url:
        one_connection = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=1))
        client = ServiceClient(InternalClient(base_url, "t", timeout=0.5, transport=one_connection))
        app = proxy(client)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway.test") as http:
            first, second = await asyncio.gather(
                http.post("/api/v1/holds/holds", headers={"Idempotency-Key": "k-1"}),
                http.post("/api/v1/holds/holds", headers={"Idempotency-Key": "k-2"}),
            )
        await client.aclose()
    codes = sorted(answer.json()["code"] for answer in (first, second))
    assert codes == ["outcome_pending", "service_busy"]
    assert all(answer.status_code == 503 and answer.headers["retry-after"] == "1" for answer in (first, second))
    assert service.requests == 1, "the refused request never reached the service"


class ClosesFirstConnection:
    """A real TCP server that closes its first connection on reading a request, without answering (what a service
    does when it drops an idle keep-alive connection the instant the gateway reuses it), and answers the rest."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.requests = 0

    async def __aenter__(self) -> str:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            self.requests += 1
            if self.requests > 1:
                body = b'{"ok": true}'
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
                    % (len(body), body)
                )
                await writer.drain()
            writer.close()

        self.server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *_: object) -> None:
        assert self.server is not None
        self.server.close()


async def test_a_read_on_a_connection_the_service_closed_is_sent_again_once() -> None:
    service = ClosesFirstConnection()
    async with service as base_url:
        client = ServiceClient(InternalClient(base_url, "t", timeout=5))
        answer = await client.request("GET", "/v1/players/p-1/tournaments")
        await client.aclose()
    assert (answer.status_code, answer.json(), service.requests) == (200, {"ok": True}, 2)


async def test_a_write_on_a_connection_the_service_closed_is_sent_again_only_under_an_idempotency_key() -> None:
    """Without an Idempotency-Key the gateway cannot know whether the service acted: it says so (502) and does not
    send it again; under a key the service carries it out once however often it is sent."""
    unkeyed, keyed = ClosesFirstConnection(), ClosesFirstConnection()
    async with unkeyed as base_url:
        client = ServiceClient(InternalClient(base_url, "t", timeout=5))
        with pytest.raises(ProblemError) as refused:
            await client.request("POST", "/v1/anything", json={})
        await client.aclose()
    async with keyed as base_url:
        client = ServiceClient(InternalClient(base_url, "t", timeout=5))
        answer = await client.request("POST", "/v1/anything", json={}, idempotency_key="k-1")
        await client.aclose()
    assert (refused.value.code, refused.value.status, unkeyed.requests) == ("upstream_unreachable", 502, 1)
    assert (answer.status_code, keyed.requests) == (200, 2)
