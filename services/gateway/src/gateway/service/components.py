"""Everything one gateway instance is made of, built once by the app factory and reached from the routes."""

from __future__ import annotations

from dataclasses import dataclass

from gateway.adapters.service_client import PlatformClients
from gateway.service.accounts import Accounts
from gateway.service.api_keys import ApiKeys
from gateway.service.concessionaires import Concessionaires
from gateway.service.context import GatewayContext
from gateway.service.demo_scope import DemoScope
from gateway.service.hub import Hub
from gateway.service.login_guard import LoginGuard
from gateway.service.players import Players
from gateway.service.protection import PlayerProtection
from gateway.service.rate_limiter import RateLimiter
from gateway.service.sessions import Sessions
from gateway.service.staff import Staff
from gateway.service.table_commands import TableCommands


@dataclass(frozen=True, slots=True)
class GatewayComponents:
    context: GatewayContext
    sessions: Sessions
    accounts: Accounts
    concessionaires: Concessionaires
    staff: Staff
    api_keys: ApiKeys
    players: Players
    protection: PlayerProtection  # self-exclusion, session time, the history (issue 17)
    tables: TableCommands  # a player's commands to their table (REST and table-socket frames)
    demo_scope: DemoScope  # where the demo concessionaire's play money may go
    rate_limiter: RateLimiter
    hub: Hub
    clients: PlatformClients  # for the proxies to the other services
    heartbeat_seconds: float
    heartbeat_timeout_seconds: float

    @classmethod
    def build(
        cls,
        context: GatewayContext,
        rate_limiter: RateLimiter,
        hub: Hub,
        clients: PlatformClients,
        *,
        heartbeat: float,
        heartbeat_timeout: float,
        table_engine_shards: int,
        standalone: bool,
    ) -> GatewayComponents:
        sessions = Sessions(context)
        return cls(
            context=context,
            sessions=sessions,
            accounts=Accounts(context, sessions, LoginGuard(context)),
            concessionaires=Concessionaires(context),
            staff=Staff(context),
            api_keys=ApiKeys(context),
            players=Players(context),
            protection=PlayerProtection(context, clients.wallet),
            tables=TableCommands(context, table_engine_shards),
            demo_scope=DemoScope(context.db, clients.tournament_director, standalone=standalone),
            rate_limiter=rate_limiter,
            hub=hub,
            clients=clients,
            heartbeat_seconds=heartbeat,
            heartbeat_timeout_seconds=heartbeat_timeout,
        )
