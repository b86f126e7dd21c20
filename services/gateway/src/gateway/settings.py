"""Settings of the gateway service under the `GATEWAY_` prefix (docs/configuration.md).

The defaults let a newcomer start the platform and log in at once; every secret among them is a development
value that a deployment must override: outside standalone mode the gateway refuses to start with one
(platform_kit.development_secrets), in standalone mode it logs a warning. Demo play money is on in standalone
mode only, unless set.
"""

from typing import ClassVar

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field

DEV_JWT_SECRET = "dev-only-jwt-secret-change-me-in-every-deployment"
DEV_ADMIN_PASSWORD = "admin-dev-password"


class Settings(ServiceSettings):
    model_config = service_config("gateway")
    service_name: str = "gateway"
    development_values: ClassVar[dict[str, frozenset[str]]] = {
        **ServiceSettings.development_values,
        "jwt_secret": frozenset({DEV_JWT_SECRET}),
        "admin_password": frozenset({DEV_ADMIN_PASSWORD}),
    }

    jwt_secret: str = Field(
        DEV_JWT_SECRET,
        min_length=32,
        description="HS256 key signing access tokens (at least 32 characters); changing it invalidates every "
        "access token issued. The development default stops a gateway outside standalone mode at start-up.",
    )
    access_token_ttl_seconds: int = Field(900, ge=30, description="Lifetime of an access token (JWT).")
    refresh_token_ttl_seconds: int = Field(
        14 * 24 * 3600, ge=60, description="Lifetime of a refresh token; each refresh issues a new one."
    )
    admin_email: str = Field(
        "admin@example.com", description="Network administrator created at start-up if no staff member has it."
    )
    admin_password: str = Field(
        DEV_ADMIN_PASSWORD,
        description="Password of that bootstrap administrator (used when creating it only). The development "
        "default stops a gateway outside standalone mode at start-up.",
    )
    demo_concessionaire: bool | None = Field(
        None,
        description="Create the concessionaire `demo` at start-up, whose players are paid play money, so that "
        "newcomers can sign up and play at once. Unset: on in standalone mode (in-memory bus), off otherwise. "
        "Outside standalone mode its players may enter only its own tournaments and may not bet.",
    )
    demo_welcome_credit_cents: int = Field(
        10_000,
        ge=0,
        description="Play money the demo concessionaire's cashier pays in for each new player of `demo`, so a "
        "newcomer can buy in at once (only while GATEWAY_DEMO_CONCESSIONAIRE is on; 0: none).",
    )
    demo_currency: str = Field("EUR", pattern=r"^[A-Z]{3}$", description="Currency of the demo welcome credit.")
    demo_bots: bool | None = Field(
        None,
        description="House bots fill a sit'n'go as soon as a player registers for it (demo). Unset: on in "
        "standalone mode (in-memory bus), off otherwise.",
    )
    password_hash_time_cost: int = Field(3, ge=1, description="argon2id iterations.")
    password_hash_memory_kib: int = Field(65536, ge=8, description="argon2id memory per hash, in KiB.")
    rate_limit_per_second: float = Field(
        20.0, gt=0, description="Requests per second per authenticated caller (player, staff, API key); per instance."
    )
    rate_limit_burst: int = Field(60, ge=1, description="Requests an authenticated caller may send at once.")
    anonymous_rate_limit_per_second: float = Field(
        2.0, gt=0, description="Requests per second per IP address without credentials (log-in, sign-up); per instance."
    )
    anonymous_rate_limit_burst: int = Field(20, ge=1, description="Requests an anonymous IP address may send at once.")
    requests_in_flight: int = Field(
        512,
        ge=1,
        description="API requests served at once per instance; one more waits up to `requests_wait_seconds` for a "
        "place, then is answered 503 `gateway_busy` with Retry-After, nothing of it read or done "
        "(platform_kit.request_admission): a backstop for a flood, well above what a rush keeps waiting on the "
        "services behind (64 refused 10,280 registrations of a 3,000-player rush that waited on the director).",
    )
    requests_wait_seconds: float = Field(
        1.0,
        ge=0,
        description="How long an API request beyond `requests_in_flight` waits for a place (0: refused at once).",
    )
    ws_heartbeat_seconds: float = Field(15.0, gt=0, description="Interval of the server's WebSocket pings.")
    ws_heartbeat_timeout_seconds: float = Field(
        45.0, gt=0, description="A WebSocket silent this long (no pong, no message) is closed."
    )
    ws_replay_buffer: int = Field(
        500, ge=1, description="Messages kept per channel for clients that reconnect with `last_seq`."
    )
    ws_send_queue: int = Field(
        1000, ge=1, description="Messages waiting for one slow WebSocket client before it is disconnected."
    )
    lobby_news_interval_seconds: float = Field(
        1.0,
        ge=0,
        description="The `lobby` WebSocket channel's public news goes out at most once this often: at once after a "
        "quiet interval, else held and sent together when the interval ends (several in one `lobby.news` message), "
        "a tournament's registrations as the latest (its count of players registered); its `tournament:<id>` "
        "channel still carries every one. 0: every piece of news, at once.",
    )
    webhook_timeout_seconds: float = Field(
        10.0, gt=0, le=60, description="A partner webhook endpoint must answer an attempt within this long."
    )
    webhook_retry_base_seconds: float = Field(
        30.0, gt=0, description="Wait before the first retry of a failed webhook delivery; doubled each retry."
    )
    webhook_retry_cap_seconds: float = Field(3600.0, gt=0, description="Longest wait between two retries.")
    webhook_retry_period_seconds: float = Field(
        72 * 3600.0, gt=0, description="A webhook delivery is retried this long after its first attempt, then failed."
    )
    webhook_disable_after_seconds: float = Field(
        5 * 24 * 3600.0,
        gt=0,
        description="An endpoint whose every attempt failed for this long is disabled and its partner told.",
    )
    webhook_poll_seconds: float = Field(
        1.0, gt=0, description="How often the webhook dispatcher looks for deliveries due (besides being woken)."
    )
    webhook_allow_private_addresses: bool | None = Field(
        None,
        description="Accept webhook endpoints on loopback, private or reserved addresses (tests, trials). Unset: "
        "allowed in standalone mode, refused otherwise (server-side request forgery).",
    )
    webhook_allow_http: bool | None = Field(
        None, description="Accept plain http:// webhook endpoints. Unset: in standalone mode only; else https:// only."
    )

    @property
    def demo_concessionaire_on(self) -> bool:
        if self.demo_concessionaire is not None:
            return self.demo_concessionaire
        return self.standalone

    @property
    def house_bots(self) -> bool:
        if self.demo_bots is not None:
            return self.demo_bots
        return self.standalone

    @property
    def webhook_private_addresses_on(self) -> bool:
        if self.webhook_allow_private_addresses is not None:
            return self.webhook_allow_private_addresses
        return self.standalone

    @property
    def webhook_http_on(self) -> bool:
        if self.webhook_allow_http is not None:
            return self.webhook_allow_http
        return self.standalone
