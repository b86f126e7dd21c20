"""The servers keep idle connections open longer than the platform's own clients reuse them."""

import httpx
from fastapi import FastAPI
from platform_kit import aiohttp_sender
from platform_kit.settings import ServiceSettings
from platform_runner.serving import server_config


def test_a_server_outlasts_the_idle_expiry_of_the_clients_that_call_it() -> None:
    """Were the server to drop an idle connection first, a client reusing it at that instant would lose its
    request ("server disconnected"): the gateway saw that as a 502 under load."""
    config = server_config(FastAPI(), ServiceSettings())
    httpx_expiry = httpx.Limits().keepalive_expiry  # the web client's calls, the webhooks
    assert httpx_expiry is not None and config.timeout_keep_alive > max(httpx_expiry, aiohttp_sender.IDLE_SECONDS)
