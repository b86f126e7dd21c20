"""Calling the platform's other services from the gateway's proxies.

Every call carries the internal token, the caller's request id (`X-Request-ID`, for one trail through the logs),
the `Idempotency-Key` the client gave (money moves are retried safely end to end) and who the caller is
(`X-Principal-*`, trusted downstream only together with the internal token).

A downstream refusal in problem+json is relayed to the gateway's caller unchanged (status, body, Retry-After):
the code a client sees is the one the owning service chose. Anything else that goes wrong downstream becomes a
502/504 problem of the gateway's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
from platform_kit import correlation
from platform_kit.errors import PROBLEM_JSON, ProblemError
from platform_kit.settings import ServiceSettings

from gateway.domain.roles import Principal

INTERNAL_TOKEN_HEADER = "X-Internal-Token"
IDEMPOTENCY_HEADER = "Idempotency-Key"
RELAYED_HEADERS = ("retry-after",)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class DownstreamProblem(Exception):
    """A downstream problem+json answer, to be sent to our caller as it is."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        super().__init__(f"downstream {status}: {body.get('code')}")
        self.status = status
        self.body = body
        self.headers = headers


def principal_headers(principal: Principal) -> dict[str, str]:
    headers = {"X-Principal-Role": principal.role.value, "X-Principal-Id": principal.subject_id}
    if principal.concessionaire_id:
        headers["X-Concessionaire-Id"] = principal.concessionaire_id
    return headers


class ServiceClient:
    def __init__(
        self,
        base_url: str,
        internal_token: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self._http = httpx.AsyncClient(
            base_url=base_url,
            timeout=timeout,
            transport=transport,
            headers={INTERNAL_TOKEN_HEADER: internal_token},
        )

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        principal: Principal | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """The downstream answer when it succeeded (2xx/3xx); raises `DownstreamProblem` or a 502/504 problem.
        `headers` are added last (e.g. the `X-Concessionaire-Id` of the player an administrator acts on)."""
        sent = {correlation.HEADER: correlation.current_or_new()}
        if idempotency_key is not None:
            sent[IDEMPOTENCY_HEADER] = idempotency_key
        if principal is not None:
            sent.update(principal_headers(principal))
        sent.update(headers or {})
        if params is not None:
            params = {name: _query_value(value) for name, value in params.items() if value is not None}
        retry_safe = method in SAFE_METHODS or idempotency_key is not None
        try:
            try:
                response = await self._http.request(method, path, json=json, params=params, headers=sent)
            except httpx.RemoteProtocolError:
                if not retry_safe:
                    raise
                # A kept-alive connection the service closed as the request went out: sent again once, on a
                # fresh connection (a read is harmless to repeat, and a keyed request is carried out once).
                response = await self._http.request(method, path, json=json, params=params, headers=sent)
        except httpx.PoolTimeout:
            # Every connection to that service is busy: nothing was sent, the caller may retry as it is.
            raise _busy("gateway_busy", "The platform is busy; retry shortly.", self.base_url) from None
        except httpx.TimeoutException:
            if idempotency_key is not None:
                # The request was sent and may have been carried out (money may have moved). The owning service
                # keeps its answer under the key: the same request with the same key learns the outcome.
                raise _busy(
                    "outcome_pending",
                    "The operation is taking longer than usual; send the same request with the same "
                    "Idempotency-Key to learn its outcome (it is never carried out twice).",
                    self.base_url,
                ) from None
            raise ProblemError(
                "upstream_timeout", "A platform service did not answer in time.", status=504, service=self.base_url
            ) from None
        except httpx.TransportError:
            raise ProblemError(
                "upstream_unreachable", "A platform service cannot be reached.", status=502, service=self.base_url
            ) from None
        if response.status_code < 400:
            return response
        raise _refusal(response, self.base_url)

    async def aclose(self) -> None:
        await self._http.aclose()


def _busy(code: str, message: str, service: str) -> ProblemError:
    return ProblemError(code, message, status=503, service=service, headers={"Retry-After": "1"})


def _query_value(value: Any) -> Any:
    """httpx sends strings, numbers and lists of them; instants go as ISO 8601."""
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _refusal(response: httpx.Response, service: str) -> Exception:
    if response.headers.get("content-type", "").startswith(PROBLEM_JSON):
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and "code" in body:
            relayed = {name: response.headers[name] for name in RELAYED_HEADERS if name in response.headers}
            return DownstreamProblem(response.status_code, body, relayed)
    return ProblemError(
        "upstream_failed",
        "A platform service failed to answer the request.",
        status=502,
        service=service,
        upstream_status=response.status_code,
    )


@dataclass(frozen=True, slots=True)
class PlatformClients:
    """One client per service the gateway's proxies call, from the common settings' base URLs."""

    tournament_director: ServiceClient
    table_engine: ServiceClient
    wallet: ServiceClient
    rating: ServiceClient
    totalizator: ServiceClient

    @classmethod
    def from_settings(
        cls, settings: ServiceSettings, transport: httpx.AsyncBaseTransport | None = None
    ) -> PlatformClients:
        """`transport` replaces the network for every client (tests and benchmarks serve fakes through it)."""
        token = settings.internal_token
        return cls(
            tournament_director=ServiceClient(settings.tournament_director_url, token, transport=transport),
            table_engine=ServiceClient(settings.table_engine_url, token, transport=transport),
            wallet=ServiceClient(settings.wallet_url, token, transport=transport),
            rating=ServiceClient(settings.rating_url, token, transport=transport),
            totalizator=ServiceClient(settings.totalizator_url, token, transport=transport),
        )

    async def aclose(self) -> None:
        for client in (self.tournament_director, self.table_engine, self.wallet, self.rating, self.totalizator):
            await client.aclose()
