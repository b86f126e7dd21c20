"""The gateway service's app factory: identities and sessions, partner keys, rate limits, the WebSocket hub,
and the web client at `/`."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import httpx
from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.runtime import ServiceRuntime
from prometheus_client import Gauge

from gateway.adapters.access_tokens import AccessTokenCodec
from gateway.adapters.orm import metadata
from gateway.adapters.passwords import PasswordHasher
from gateway.adapters.secret_factory import SecretFactory
from gateway.adapters.service_client import PlatformClients
from gateway.api.fallback import install_api_fallback
from gateway.api.problems import install_problem_handlers
from gateway.api.routes import document_access
from gateway.api.v1.router import router as api_v1
from gateway.api.v1.webhooks import install_webhooks
from gateway.api.web import mount_web_client
from gateway.bots.crew import BotCrew
from gateway.domain.identity import normalize_email
from gateway.domain.rate_limit import BucketPolicy
from gateway.service.components import GatewayComponents
from gateway.service.context import GatewayContext
from gateway.service.demo_credit import REGISTERED as CREDIT_ON
from gateway.service.demo_credit import DemoCredit
from gateway.service.fanout import PATTERNS as FANOUT_PATTERNS
from gateway.service.fanout import StreamFanout
from gateway.service.house_bots import REGISTERED as BOTS_ON
from gateway.service.house_bots import HouseBots
from gateway.service.hub import CloseCode, Hub
from gateway.service.rate_limiter import RateLimiter
from gateway.service.sanctions import DECIDED, LIFTED, SanctionConsumer
from gateway.service.table_presence import TablePresenceReporter
from gateway.service.wallet_accounts import WalletAccounts
from gateway.service.webhooks_wiring import wire_webhooks
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
    clock = clock or SystemClock()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    secrets = SecretFactory(random_bytes) if random_bytes else SecretFactory()
    context = GatewayContext(
        db=runtime.db,
        outbox=runtime.outbox,
        sender=runtime.sender,
        clock=clock,
        passwords=PasswordHasher(
            time_cost=settings.password_hash_time_cost, memory_kib=settings.password_hash_memory_kib
        ),
        access_tokens=AccessTokenCodec(
            settings.jwt_secret, timedelta(seconds=settings.access_token_ttl_seconds), clock
        ),
        secrets=secrets,
        refresh_ttl=timedelta(seconds=settings.refresh_token_ttl_seconds),
        house_key=settings.internal_token,
    )
    hub = Hub(
        replay_capacity=settings.ws_replay_buffer,
        send_queue_size=settings.ws_send_queue,
        new_epoch=secrets.channel_epoch,
    )
    rate_limiter = RateLimiter(
        clock,
        authenticated=BucketPolicy(settings.rate_limit_per_second, settings.rate_limit_burst),
        anonymous=BucketPolicy(settings.anonymous_rate_limit_per_second, settings.anonymous_rate_limit_burst),
    )
    clients = PlatformClients.from_settings(settings, services_transport)
    components = GatewayComponents.build(
        context,
        rate_limiter,
        hub,
        clients,
        heartbeat=settings.ws_heartbeat_seconds,
        heartbeat_timeout=settings.ws_heartbeat_timeout_seconds,
        table_engine_shards=settings.table_engine_shards,
        standalone=settings.standalone,
    )
    _wire_streams(runtime, settings, clock, hub)
    _wire_demo(runtime, settings, clients)
    webhooks = wire_webhooks(runtime, settings, context, transport=webhook_transport, jitter=webhook_jitter)

    app = create_service_app(
        runtime,
        title="Gateway",
        description="The one front door: identities, sessions, API keys, rate limits, WebSocket streams and the web client.",
        routers=[api_v1],
        body_limits=BODY_LIMITS,
    )
    app.state.gateway = components
    install_webhooks(app, webhooks)
    install_problem_handlers(app)
    document_access(app)
    _bootstrap_at_start(app, components, settings)
    install_api_fallback(app)
    mount_web_client(app)
    return app


def _wire_streams(runtime: ServiceRuntime, settings: Settings, clock: Clock, hub: Hub) -> None:
    """The sockets' side: table events fanned out to them, bans closing a banned player's, presence reported."""
    sanctions = SanctionConsumer(
        clock, on_ban=lambda player_id: hub.kick_player(player_id, CloseCode.FORBIDDEN, "player_banned")
    )
    presence = TablePresenceReporter(runtime.db, runtime.outbox, settings.table_engine_shards)
    hub.on_table_disconnect, hub.on_table_reconnect = presence.disconnected, presence.reconnected
    runtime.in_background(presence.run)
    runtime.on(DECIDED, sanctions.decided)
    runtime.on(LIFTED, sanctions.lifted)
    fanout = StreamFanout(hub)
    for pattern in FANOUT_PATTERNS:
        runtime.on_each_instance(pattern, fanout)
    Gauge("gateway_websocket_connections", "Open WebSocket connections", registry=runtime.registry).set_function(
        lambda: hub.connection_count
    )


def _wire_demo(runtime: ServiceRuntime, settings: Settings, clients: PlatformClients) -> None:
    """The demo concessionaire's welcome credit and the house bots, when they are on."""
    if settings.demo_concessionaire_on and settings.demo_welcome_credit_cents:
        credit = DemoCredit(
            runtime.db,
            WalletAccounts(clients.wallet),
            amount=settings.demo_welcome_credit_cents,
            currency=settings.demo_currency,
        )
        runtime.on(CREDIT_ON, credit.registered)
        runtime.in_background(credit.run)
    if settings.house_bots:
        crew = BotCrew(settings.gateway_url, random.Random(), house_key=settings.internal_token)
        bots = HouseBots(clients.tournament_director, crew)
        runtime.on(BOTS_ON, bots.registered)
        runtime.in_background(bots.run)


def _bootstrap_at_start(app: FastAPI, components: GatewayComponents, settings: Settings) -> None:
    """After the kit's start-up (migrations, bus): the demo concessionaire and the bootstrap administrator.
    At shutdown, WebSocket clients are told to reconnect elsewhere (1001)."""
    kit_lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with kit_lifespan(app):
            if settings.demo_concessionaire_on:
                await components.concessionaires.ensure_demo()
            await components.staff.ensure_admin(normalize_email(settings.admin_email), settings.admin_password)
            if settings.jwt_secret == DEV_JWT_SECRET or settings.admin_password == DEV_ADMIN_PASSWORD:
                log.warning("gateway runs with development secrets: set GATEWAY_JWT_SECRET and GATEWAY_ADMIN_PASSWORD")
            try:
                yield
            finally:
                components.hub.close_all()
                await components.clients.aclose()

    app.router.lifespan_context = lifespan
