"""The gateway service's app factory: identities and sessions, partner keys, rate limits, the WebSocket hub,
and the web client at `/`. The composition root is `bootstrap.build`."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from fastapi import FastAPI
from platform_kit.admission import Admission
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.request_admission import RequestAdmission
from platform_kit.runtime import ServiceRuntime

from gateway import bootstrap
from gateway.adapters.orm import metadata
from gateway.api.fallback import install_api_fallback
from gateway.api.problems import install_problem_handlers
from gateway.api.routes import API_PREFIX, document_access
from gateway.api.v1.router import include_api_v1
from gateway.api.v1.webhooks import document_webhooks
from gateway.api.web import mount_web_client
from gateway.domain.identity import normalize_email
from gateway.settings import DEV_ADMIN_PASSWORD, DEV_JWT_SECRET, Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# Anyone may post to the log-in and sign-up routes: their bodies are a few hundred bytes, so an anonymous caller
# gets far less than the kit's default (GATEWAY_MAX_BODY_BYTES) to make the gateway read.
BODY_LIMITS = {"/api/v1/auth": 16 * 1024}
log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None,
    *,
    bus: Transport | None = None,
    clock: Clock | None = None,
    random_bytes: Callable[[int], bytes] | None = None,
    services_transport: httpx.AsyncBaseTransport | None = None,
    webhook_transport: httpx.AsyncBaseTransport | None = None,
    webhook_jitter: random.Random | None = None,
) -> FastAPI:
    """`clock` and `random_bytes` default to the system's (tests inject frozen and seeded ones);
    `services_transport` replaces the network to the other services (tests and benchmarks serve fakes);
    `webhook_transport` and `webhook_jitter` the partners' endpoints and the retries' randomness."""
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    services = bootstrap.build(
        settings,
        runtime,
        clock=clock or SystemClock(),
        random_bytes=random_bytes,
        services_transport=services_transport,
        webhook_transport=webhook_transport,
        webhook_jitter=webhook_jitter,
    )
    app = create_service_app(
        runtime,
        title="Gateway",
        description="The one front door: identities, sessions, API keys, rate limits, WebSocket streams and the web client.",
        body_limits=BODY_LIMITS,
        admission=RequestAdmission(
            Admission(
                settings.requests_in_flight,
                "gateway_busy",
                "The platform is busy; retry shortly.",
                wait_seconds=settings.requests_wait_seconds,
            ),
            under=f"{API_PREFIX}/",
        ),
    )
    include_api_v1(app)
    app.state.services = services
    document_webhooks(app)
    install_problem_handlers(app)
    document_access(app)
    _at_start(app, services, settings)
    install_api_fallback(app)
    mount_web_client(app)
    return app


def _at_start(app: FastAPI, services: bootstrap.Services, settings: Settings) -> None:
    """After the kit's start-up (migrations, bus): the demo concessionaire and the bootstrap administrator.
    At shutdown, WebSocket clients are told to reconnect elsewhere (1001)."""
    kit_lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with kit_lifespan(app):
            if settings.demo_concessionaire_on:
                await services.concessionaires.ensure_demo()
            await services.staff.ensure_admin(normalize_email(settings.admin_email), settings.admin_password)
            if settings.jwt_secret == DEV_JWT_SECRET or settings.admin_password == DEV_ADMIN_PASSWORD:
                log.warning("gateway runs with development secrets: set GATEWAY_JWT_SECRET and GATEWAY_ADMIN_PASSWORD")
            try:
                yield
            finally:
                services.hub.close_all()
                await services.clients.aclose()

    app.router.lifespan_context = lifespan
