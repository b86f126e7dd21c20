"""Settings from environment variables (pydantic-settings).

Every service reads the same fields under its own prefix, e.g. `WALLET_DATABASE_URL`, `WALLET_BUS_URL`; a few
are one variable for the whole platform, under `PLATFORM_` (`PLATFORM_IDEMPOTENCY_RETENTION_HOURS`).
The full list with defaults is in docs/configuration.md (generated from these classes and checked by a test).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from platform_kit.logging import LogFormat
from platform_kit.proxies import trusted_proxies

SERVICE_PORTS = {
    "gateway": 8000,
    "tournament-director": 8001,
    "table-engine": 8002,
    "wallet": 8003,
    "rating": 8004,
    "totalizator": 8005,
}


#: The prefix of the few variables every service reads alike, set once for the whole platform (a field's
#: `validation_alias`): the idempotency retention.
PLATFORM_PREFIX = "PLATFORM_"

DEV_INTERNAL_TOKEN = "dev-internal-token"
#: Every internal token the repository has ever shipped: the default and the placeholders once committed for
#: compose and the Kubernetes dev overlay. A deployment that copied one is refused like the default.
DEV_INTERNAL_TOKENS = frozenset({DEV_INTERNAL_TOKEN, "compose-internal-token", "dev-internal-token-not-secret"})


def default_url(service: str) -> str:
    return f"http://127.0.0.1:{SERVICE_PORTS[service]}"


class ServiceSettings(BaseSettings):
    """Fields every service has. A service subclasses it with its name and env prefix:

    class Settings(ServiceSettings):
        model_config = service_config("wallet")
        service_name: str = "wallet"

    Secrets are listed in `development_values` with the values published in this repository, which a deployed
    service refuses to start with (`development_secrets`, platform_kit.development_secrets).
    """

    model_config = SettingsConfigDict(extra="ignore")
    #: Secret field -> its development values; a subclass adds its own: `{**ServiceSettings.development_values, …}`.
    development_values: ClassVar[dict[str, frozenset[str]]] = {"internal_token": DEV_INTERNAL_TOKENS}

    service_name: str = Field("service", description="Name used in logs, metrics and as the event producer.")
    host: str = Field("127.0.0.1", description="Interface the HTTP server binds to.")
    port: int = Field(
        0, description="HTTP port; 0 means the service's standard port (gateway 8000 … totalizator 8005)."
    )
    reuse_port: bool = Field(
        False,
        description="Bind the port with SO_REUSEPORT so that several processes of the service on one host share "
        "it, the kernel spreading new connections over them (as a layer-4 load balancer would, at no CPU cost): "
        "for several gateway processes on one VM without a proxy in front. Each process joins only once started, "
        "so no connection waits on one still starting. Not needed on Kubernetes (one process per pod, the Service "
        "balances). The spreading is Linux's; elsewhere one process may get them all.",
    )
    database_url: str = Field(
        "",
        description="SQLAlchemy async URL of the service's own database (postgresql+asyncpg://… when deployed); "
        "empty means the SQLite file data/<service>.db.",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description="Proxies whose X-Forwarded-For/-Proto headers are believed (comma-separated addresses or "
        "CIDRs, e.g. the ingress controller's pod network; `*` is refused): the client address rate limits and logs "
        "see is the last X-Forwarded-For hop that is not one of them.",
    )
    max_body_bytes: int = Field(
        1024 * 1024,
        ge=1024,
        description="Largest request body accepted, in bytes (413 `request_too_large` beyond it); a service may "
        "set smaller or larger limits for some route families (the gateway: 16 KiB under /api/v1/auth).",
    )
    database_pool_size: int = Field(
        10,
        ge=1,
        description="The most PostgreSQL connections each process opens; each is opened when the load first "
        "needs it and then kept. Size it so that every process of every service together stays under the "
        "server's max_connections (100 by default: ten processes of ten).",
    )
    database_pool_timeout_seconds: float = Field(
        5.0,
        gt=0,
        description="How long a request waits for a free database connection before it is refused with 503 "
        "`database_busy` and Retry-After (overload degrades instead of hanging). Waiting requests are served in "
        "the order they asked.",
    )
    bus_url: str = Field("memory://", description="`amqp://user:pass@host:5672/` for RabbitMQ, `memory://` standalone.")
    migrate_on_start: bool = Field(True, description="Upgrade the database to the latest migration at start-up.")
    log_level: str = Field("INFO", description="Log level of the logs.")
    log_format: LogFormat = Field(
        "auto",
        description="`json` (one object a line, for a log collector), `text` (readable lines), or `auto`: text "
        "for a standalone platform writing to a terminal, JSON otherwise (so every deployment logs JSON).",
    )
    otel_exporter_otlp_endpoint: str = Field(
        "", description="OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); empty: not exported."
    )
    otel_traces_sample_ratio: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Share of new traces recorded (head sampling; a caller's decision, carried in its trace "
        "context, is followed). Empty: all of them when an OTLP endpoint is set, none otherwise (the trace "
        "context still flows from service to service).",
    )
    internal_token: str = Field(
        DEV_INTERNAL_TOKEN,
        description="Shared secret that service-to-service REST calls carry in `X-Internal-Token`; the same in "
        "every service. A development value outside standalone mode stops the service at start-up.",
    )
    idempotency_retention_hours: int = Field(
        720,
        ge=24,
        validation_alias=PLATFORM_PREFIX + "IDEMPOTENCY_RETENTION_HOURS",
        description="Hours an answered Idempotency-Key is kept after its first request (minimum 24), in every service "
        "that keeps keys (the wallet, the tournament director): within them a retry with the same key and request "
        "gets the first answer — the guarantee given to partners and players. Then the purge deletes the key and the "
        "same request executes as a new one, so clients must not retry after it.",
    )
    idempotency_purge_interval_seconds: float = Field(
        3600.0,
        gt=0,
        validation_alias=PLATFORM_PREFIX + "IDEMPOTENCY_PURGE_INTERVAL_SECONDS",
        description="How often Idempotency-Keys past their retention are deleted, oldest first, 10,000 rows per "
        "transaction so the purge never holds many locks for long.",
    )
    table_engine_shards: int = Field(
        1, ge=1, description="Number of table-engine shards; a table's shard is crc32(table id) mod this number."
    )
    gateway_url: str = Field(default_url("gateway"), description="Base URL of the gateway.")
    tournament_director_url: str = Field(default_url("tournament-director"), description="Base URL of the director.")
    table_engine_url: str = Field(default_url("table-engine"), description="Base URL of the table engine.")
    wallet_url: str = Field(default_url("wallet"), description="Base URL of the wallet.")
    rating_url: str = Field(default_url("rating"), description="Base URL of the rating service.")
    totalizator_url: str = Field(default_url("totalizator"), description="Base URL of the totalizator.")

    @property
    def standalone(self) -> bool:
        """On the in-memory bus: every service in one process on one machine, a trial rather than a deployment."""
        return self.bus_url.startswith("memory:")

    def development_secrets(self) -> list[str]:
        """The environment variables (e.g. `WALLET_INTERNAL_TOKEN`) of the secrets still set to a development
        value, sorted."""
        prefix = str(self.model_config.get("env_prefix", ""))
        return sorted(
            (prefix + name).upper()
            for name, published in self.development_values.items()
            if getattr(self, name) in published
        )

    @model_validator(mode="before")
    @classmethod
    def _platform_fields_by_name(cls, values: Any) -> Any:
        """A platform-wide field (read from its one `PLATFORM_` variable, its `validation_alias`) passed by its name
        in code, `Settings(idempotency_retention_hours=24)`, is taken before the variable. (pydantic's own
        `validate_by_name` would also read the field under the service's prefix: a second variable.)"""
        if isinstance(values, dict):
            for name, field in cls.model_fields.items():
                if isinstance(field.validation_alias, str) and name in values:
                    values = {**values, field.validation_alias: values[name]}
        return values

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _named_proxies_only(cls, value: str) -> str:
        return trusted_proxies(value)

    @model_validator(mode="after")
    def _service_defaults(self) -> ServiceSettings:
        if not self.port:
            self.port = SERVICE_PORTS.get(self.service_name, 8000)
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///data/{self.service_name}.db"
        return self


def service_config(service: str) -> SettingsConfigDict:
    """Environment variables of `service` are its name in capitals: `TOURNAMENT_DIRECTOR_DATABASE_URL`."""
    return SettingsConfigDict(env_prefix=service.replace("-", "_").upper() + "_", extra="ignore")
