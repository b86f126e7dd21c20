"""The gateway's composition root: `build` makes everything one gateway instance is made of — the use cases,
the WebSocket hub, the rate limiter, the clients of the other services, partner webhooks — wires the platform
events it consumes (fan-out to the sockets, bans, the demo's credit and bots, webhook intake) and returns
`Services`, which the app keeps at `app.state.services` for the routes."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import httpx
from platform_kit.clock import Clock
from platform_kit.runtime import ServiceRuntime
from prometheus_client import Gauge

from gateway.adapters.access_tokens import AccessTokenCodec
from gateway.adapters.passwords import PasswordHasher
from gateway.adapters.secret_factory import SecretFactory
from gateway.adapters.service_client import PlatformClients
from gateway.bots.crew import BotCrew
from gateway.domain.rate_limit import BucketPolicy
from gateway.service.accounts import Accounts
from gateway.service.api_keys import ApiKeys
from gateway.service.concessionaires import Concessionaires
from gateway.service.context import Context
from gateway.service.demo_credit import REGISTERED as CREDIT_ON
from gateway.service.demo_credit import DemoCredit
from gateway.service.demo_scope import DemoScope
from gateway.service.fanout import PATTERNS as FANOUT_PATTERNS
from gateway.service.fanout import StreamFanout
from gateway.service.house_bots import REGISTERED as BOTS_ON
from gateway.service.house_bots import HouseBots
from gateway.service.hub import CloseCode, Hub
from gateway.service.lobby_news import LobbyNews
from gateway.service.login_guard import LoginGuard
from gateway.service.players import Players
from gateway.service.protection import PlayerProtection
from gateway.service.rate_limiter import RateLimiter
from gateway.service.sanctions import DECIDED, LIFTED, SanctionConsumer
from gateway.service.sessions import Sessions
from gateway.service.staff import Staff
from gateway.service.table_commands import TableCommands
from gateway.service.table_presence import TablePresenceReporter
from gateway.service.wallet_accounts import WalletAccounts
from gateway.service.webhooks import Webhooks
from gateway.service.webhooks_wiring import wire_webhooks
from gateway.settings import Settings


@dataclass(frozen=True, slots=True)
class Services:
    context: Context
    sessions: Sessions
    accounts: Accounts
    concessionaires: Concessionaires
    staff: Staff
    api_keys: ApiKeys
    players: Players
    protection: PlayerProtection  # self-exclusion, session time, the history (issue 17)
    tables: TableCommands  # a player's commands to their table (REST and table-socket frames)
    demo_scope: DemoScope  # where the demo concessionaire's play money may go
    webhooks: Webhooks  # partners' endpoints and their deliveries
    rate_limiter: RateLimiter
    hub: Hub
    clients: PlatformClients  # for the proxies to the other services
    heartbeat_seconds: float
    heartbeat_timeout_seconds: float


def build(
    settings: Settings,
    runtime: ServiceRuntime,
    *,
    clock: Clock,
    random_bytes: Callable[[int], bytes] | None = None,
    services_transport: httpx.AsyncBaseTransport | None = None,
    webhook_transport: httpx.AsyncBaseTransport | None = None,
    webhook_jitter: random.Random | None = None,
) -> Services:
    """`random_bytes` defaults to the system's; `services_transport` replaces the network to the other services,
    `webhook_transport` and `webhook_jitter` the partners' endpoints and the retries' randomness (tests)."""
    secrets = SecretFactory(random_bytes) if random_bytes else SecretFactory()
    context = Context(
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
    clients = PlatformClients.from_settings(settings, services_transport)
    _wire_streams(runtime, settings, clock, hub)
    _wire_demo(runtime, settings, clients)
    sessions = Sessions(context)
    return Services(
        context=context,
        sessions=sessions,
        accounts=Accounts(context, sessions, LoginGuard(context)),
        concessionaires=Concessionaires(context),
        staff=Staff(context),
        api_keys=ApiKeys(context),
        players=Players(context),
        protection=PlayerProtection(context, clients.wallet),
        tables=TableCommands(context, settings.table_engine_shards),
        demo_scope=DemoScope(context.units, clients.tournament_director, standalone=settings.standalone),
        webhooks=wire_webhooks(runtime, settings, context, transport=webhook_transport, jitter=webhook_jitter),
        rate_limiter=RateLimiter(
            clock,
            authenticated=BucketPolicy(settings.rate_limit_per_second, settings.rate_limit_burst),
            anonymous=BucketPolicy(settings.anonymous_rate_limit_per_second, settings.anonymous_rate_limit_burst),
        ),
        hub=hub,
        clients=clients,
        heartbeat_seconds=settings.ws_heartbeat_seconds,
        heartbeat_timeout_seconds=settings.ws_heartbeat_timeout_seconds,
    )


def _wire_streams(runtime: ServiceRuntime, settings: Settings, clock: Clock, hub: Hub) -> None:
    """The sockets' side: table events fanned out to them, bans closing a banned player's, presence reported."""
    sanctions = SanctionConsumer(
        clock, on_ban=lambda player_id: hub.kick_player(player_id, CloseCode.FORBIDDEN, "player_banned")
    )
    presence = TablePresenceReporter(runtime.units, settings.table_engine_shards)
    hub.on_table_disconnect, hub.on_table_reconnect = presence.disconnected, presence.reconnected
    runtime.in_background(presence.run)
    runtime.on(DECIDED, sanctions.decided)
    runtime.on(LIFTED, sanctions.lifted)
    lobby = LobbyNews(hub, settings.lobby_news_interval_seconds)
    if settings.lobby_news_interval_seconds > 0:
        runtime.in_background(lobby.run)
    fanout = StreamFanout(hub, lobby)
    for pattern in FANOUT_PATTERNS:
        runtime.on_each_instance(pattern, fanout)
    Gauge("gateway_websocket_connections", "Open WebSocket connections", registry=runtime.registry).set_function(
        lambda: hub.connection_count
    )


def _wire_demo(runtime: ServiceRuntime, settings: Settings, clients: PlatformClients) -> None:
    """The demo concessionaire's welcome credit and the house bots, when they are on."""
    if settings.demo_concessionaire_on and settings.demo_welcome_credit_cents:
        credit = DemoCredit(
            runtime.units,
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
