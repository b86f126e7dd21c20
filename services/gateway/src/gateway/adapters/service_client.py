"""Calling the platform's other services from the gateway's proxies.

Every call goes through the kit's internal client (platform_kit.internal_client): the internal token, the
caller's request id, the `Idempotency-Key` the client gave (money moves are retried safely end to end) and who
the caller is (`X-Principal-*`, trusted downstream only together with the internal token).

A downstream refusal in problem+json is relayed to the gateway's caller unchanged (status, body, Retry-After):
the code a client sees is the one the owning service chose. Anything else that goes wrong downstream becomes a
502/503/504 problem of the gateway's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Unpack

import httpx
from platform_kit.errors import PROBLEM_JSON, ProblemError
from platform_kit.internal_client import Call, InternalClient
from platform_kit.settings import ServiceSettings

RELAYED_HEADERS = ("retry-after",)


class DownstreamProblem(Exception):
    """A downstream problem+json answer, to be sent to our caller as it is."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        super().__init__(f"downstream {status}: {body.get('code')}")
        self.status = status
        self.body = body
        self.headers = headers


class ServiceClient:
    """The kit's internal client (platform_kit.internal_client: headers, the resend on a closed connection) with
    the gateway's reading of what came back."""

    def __init__(self, client: InternalClient) -> None:
        self.base_url = client.base_url
        self._client = client

    async def request(self, method: str, path: str, **call: Unpack[Call]) -> httpx.Response:
        """The downstream answer when it succeeded (2xx/3xx); raises `DownstreamProblem` or a 502/503/504 problem.
        `headers` are added last (e.g. the `X-Concessionaire-Id` of the player an administrator acts on)."""
        try:
            response = await self._client.request(method, path, **call)
        except httpx.PoolTimeout:
            # Every connection to that service is busy: nothing was sent, the caller may retry as it is. Its own
            # code: the gateway's edge bound answers `gateway_busy`, and an operator tells the two apart.
            raise _busy("service_busy", "A platform service is busy; retry shortly.", self.base_url) from None
        except httpx.TimeoutException:
            if call.get("idempotency_key") is not None:
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
        await self._client.aclose()


def _busy(code: str, message: str, service: str) -> ProblemError:
    return ProblemError(code, message, status=503, service=service, headers={"Retry-After": "1"})


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

        def client(base_url: str) -> ServiceClient:
            return ServiceClient(InternalClient(base_url, settings.internal_token, transport=transport))

        return cls(
            tournament_director=client(settings.tournament_director_url),
            table_engine=client(settings.table_engine_url),
            wallet=client(settings.wallet_url),
            rating=client(settings.rating_url),
            totalizator=client(settings.totalizator_url),
        )

    async def aclose(self) -> None:
        for client in (self.tournament_director, self.table_engine, self.wallet, self.rating, self.totalizator):
            await client.aclose()
