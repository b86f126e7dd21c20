"""Who may call what. Every `/api` route declares it with a dependency, and a test fails when one does not:

    @router.get("/players/{player_id}")
    async def read(principal: Annotated[Principal, Depends(allow(Role.PLAYER, Role.PARTNER))]) -> ...

`allow(*roles)` authenticates the caller (a bearer access token, or a partner's `X-API-Key`), applies the rate
limit (per principal; per IP address when unauthenticated) and refuses other roles. `public()` declares an
endpoint open to anyone (still rate-limited per IP). `allow(..., good_standing=True)` also refuses banned
players (P-12.5), self-excluded ones and those past their session time limit (issue 17), for the endpoints
that register a player for something (tournaments, bets) or play (table actions).
`allow_on_player(*roles)` is the declaration of the routes under `/players/{player_id}`: it also resolves the
player, answering 404 for one the caller may not see before any other refusal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Path, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from platform_kit.errors import Forbidden
from starlette.requests import HTTPConnection

from gateway.adapters.access_tokens import InvalidAccessToken
from gateway.adapters.identity_store import PlayerRecord
from gateway.bootstrap import Services
from gateway.domain.roles import Principal, Role
from gateway.service.errors import RateLimited, Unauthenticated

POLICY_ATTRIBUTE = "__access_policy__"

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="accessToken",
    description="Access token from `POST /api/v1/auth/login` (players) or `/auth/staff/login` (staff).",
)
partner_key = APIKeyHeader(
    name="X-API-Key",
    auto_error=False,
    scheme_name="partnerApiKey",
    description="A partner API key of one concessionaire (`gk_…`), created by its operator.",
)


@dataclass(frozen=True, slots=True)
class AccessPolicy:
    roles: frozenset[Role]
    public: bool = False

    def describe(self) -> str:
        if self.public:
            return "anyone (no credentials)"
        return ", ".join(sorted(role.value for role in self.roles))


def services_of(connection: HTTPConnection) -> Services:
    services: Services = connection.app.state.services
    return services


def policy_of(dependency: object) -> AccessPolicy | None:
    policy = getattr(dependency, POLICY_ATTRIBUTE, None)
    return policy if isinstance(policy, AccessPolicy) else None


def client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


def apply_rate_limit(services: Services, connection: HTTPConnection, principal: Principal | None) -> None:
    key = principal.key if principal else client_address(connection)
    retry_after = services.rate_limiter.check(key, authenticated=principal is not None)
    if retry_after:
        raise RateLimited(retry_after)


def principal_from_token(services: Services, token: str) -> Principal:
    try:
        return services.context.access_tokens.decode(token)
    except InvalidAccessToken as error:
        raise Unauthenticated(error.code, error.message) from None


async def _authenticate(
    services: Services, credentials: HTTPAuthorizationCredentials | None, api_key: str | None
) -> Principal | None:
    if api_key:
        principal = await services.api_keys.authenticate(api_key)
        if principal is None:
            raise Unauthenticated("invalid_api_key", "The API key is unknown or revoked.")
        return principal
    if credentials:
        return principal_from_token(services, credentials.credentials)
    return None


async def _admitted(
    services: Services,
    request: Request,
    credentials: HTTPAuthorizationCredentials | None,
    api_key: str | None,
) -> Principal:
    """The authenticated caller, after the rate limit; 401 without valid credentials."""
    try:
        principal = await _authenticate(services, credentials, api_key)
    except Unauthenticated:
        apply_rate_limit(services, request, None)  # failed attempts count against the address
        raise
    apply_rate_limit(services, request, principal)
    if principal is None:
        raise Unauthenticated("missing_credentials", "Log in first (bearer token) or send a partner API key.")
    return principal


def _check_role(principal: Principal, policy: AccessPolicy) -> None:
    if principal.role not in policy.roles:
        raise Forbidden("role_not_allowed", f"This operation is for: {policy.describe()}.")


async def _check_role_and_standing(
    services: Services, principal: Principal, policy: AccessPolicy, good_standing: bool
) -> None:
    _check_role(principal, policy)
    if good_standing and principal.role is Role.PLAYER:
        await services.players.in_good_standing(principal.subject_id, own_session=True)


def allow(*roles: Role, good_standing: bool = False) -> Callable[..., Awaitable[Principal]]:
    if not roles:
        raise ValueError("name at least one role (or use public())")
    policy = AccessPolicy(frozenset(roles))

    async def require(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
        api_key: Annotated[str | None, Security(partner_key)],
    ) -> Principal:
        services = services_of(request)
        principal = await _admitted(services, request, credentials, api_key)
        await _check_role_and_standing(services, principal, policy, good_standing)
        return principal

    setattr(require, POLICY_ATTRIBUTE, policy)
    return require


@dataclass(frozen=True, slots=True)
class PlayerInScope:
    """The caller and the player named in the path, whom the caller may see."""

    principal: Principal
    player: PlayerRecord


def allow_on_player(*roles: Role, good_standing: bool = False) -> Callable[..., Awaitable[PlayerInScope]]:
    """The declaration for routes with `{player_id}` in the path. A player the caller may not see (another
    player, another concessionaire's) answers 404 `player_not_found` before any other refusal, exactly like a
    missing one: the role check and everything else (an Idempotency-Key, the body) come after it. So put this
    dependency first among the route's parameters."""
    if not roles:
        raise ValueError("name at least one role")
    policy = AccessPolicy(frozenset(roles))

    async def require(
        request: Request,
        player_id: Annotated[str, Path(description="The player's id.")],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
        api_key: Annotated[str | None, Security(partner_key)],
    ) -> PlayerInScope:
        services = services_of(request)
        principal = await _admitted(services, request, credentials, api_key)
        player = await services.players.get(principal, player_id)
        await _check_role_and_standing(services, principal, policy, good_standing)
        return PlayerInScope(principal, player)

    setattr(require, POLICY_ATTRIBUTE, policy)
    return require


def allow_player_in_good_standing() -> Callable[..., Awaitable[PlayerInScope]]:
    """`allow(Role.PLAYER, good_standing=True)` for a route that also needs the player's record (a coupon carries
    their birth date): the record is read with the standing, one round trip where a closing rush paid two."""
    policy = AccessPolicy(frozenset({Role.PLAYER}))

    async def require(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
        api_key: Annotated[str | None, Security(partner_key)],
    ) -> PlayerInScope:
        services = services_of(request)
        principal = await _admitted(services, request, credentials, api_key)
        _check_role(principal, policy)
        return PlayerInScope(principal, await services.players.own_in_good_standing(principal))

    setattr(require, POLICY_ATTRIBUTE, policy)
    return require


def public() -> Callable[..., Awaitable[None]]:
    async def anyone(request: Request) -> None:
        """Signed-in callers count against their own limit, not their address's: players behind one carrier
        NAT share an address. The headers are read here, not declared: the route asks for no credentials, and
        stale ones are no reason to refuse it (they count as none)."""
        services = services_of(request)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        credentials = (
            HTTPAuthorizationCredentials(scheme=scheme, credentials=token) if scheme.lower() == "bearer" else None
        )
        try:
            principal = await _authenticate(services, credentials, request.headers.get(partner_key.model.name))
        except Unauthenticated:
            principal = None
        apply_rate_limit(services, request, principal)

    setattr(anyone, POLICY_ATTRIBUTE, AccessPolicy(frozenset(), public=True))
    return anyone


def socket_policy(*roles: Role) -> Callable[[], Awaitable[AccessPolicy]]:
    """The declaration for a WebSocket route; the handler authenticates (token in the query or first message)."""
    policy = AccessPolicy(frozenset(roles))

    async def declared() -> AccessPolicy:
        return policy

    setattr(declared, POLICY_ATTRIBUTE, policy)
    return declared
