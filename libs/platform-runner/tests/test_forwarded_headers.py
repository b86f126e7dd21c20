"""Who the client is, behind proxies: the server believes X-Forwarded-For from the configured proxies only and takes
its last hop that is not one of them, so a client cannot choose the address its rate limits count by (the
report: a rotating X-Forwarded-For made every log-in attempt come from a new address)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI, Request
from gateway.settings import Settings as GatewaySettings
from platform_kit.settings import ServiceSettings
from pydantic import ValidationError
from runner_serving_support import served

echo = FastAPI()


@echo.get("/whoami")
async def whoami(request: Request) -> dict[str, str | None]:
    return {"client": request.client.host if request.client else None}


@asynccontextmanager
async def serving(forwarded_allow_ips: str) -> AsyncIterator[httpx.AsyncClient]:
    """The echo app on a free local port, configured the way `platform serve` configures a service."""
    async with (
        served(echo, ServiceSettings(forwarded_allow_ips=forwarded_allow_ips)) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        yield http


async def client_seen(http: httpx.AsyncClient, forwarded_for: str) -> str:
    answer = await http.get("/whoami", headers={"X-Forwarded-For": forwarded_for})
    client: str = answer.json()["client"]
    return client


async def test_the_last_hop_before_the_trusted_proxies_is_the_client() -> None:
    """This test connects from 127.0.0.1, playing the proxy; what a client wrote is to the left of what the
    proxies appended, and is never believed."""
    async with serving("127.0.0.1, 10.0.0.0/8") as http:
        assert await client_seen(http, "203.0.113.9") == "203.0.113.9"
        assert await client_seen(http, "6.6.6.6, 203.0.113.9") == "203.0.113.9"
        assert await client_seen(http, "6.6.6.6, 203.0.113.9, 10.1.2.3") == "203.0.113.9"
        rotated = {await client_seen(http, f"198.51.100.{n}, 203.0.113.9") for n in range(5)}
        assert rotated == {"203.0.113.9"}


async def test_forwarded_headers_from_other_peers_are_ignored() -> None:
    async with serving("10.0.0.0/8") as http:
        assert await client_seen(http, "203.0.113.9") == "127.0.0.1"


@pytest.mark.parametrize("value", ["*", "10.0.0.0/8, *", "ingress-nginx", "10.0.0.300"])
def test_trusting_anyone_or_a_non_address_is_refused_at_start_up(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="forwarded_allow_ips"):
        ServiceSettings(forwarded_allow_ips=value)
    monkeypatch.setenv("GATEWAY_FORWARDED_ALLOW_IPS", value)
    with pytest.raises(ValidationError, match="forwarded_allow_ips"):
        GatewaySettings()


def test_addresses_and_networks_are_accepted_and_normalised() -> None:
    settings = ServiceSettings(forwarded_allow_ips=" 127.0.0.1 , 10.0.0.0/8,fd00::/8 ")
    assert settings.forwarded_allow_ips == "127.0.0.1,10.0.0.0/8,fd00::/8"
    assert ServiceSettings(forwarded_allow_ips="").forwarded_allow_ips == ""
