"""Settings from environment variables (pydantic-settings).

Every service reads the same fields under its own prefix, e.g. `WALLET_DATABASE_URL`, `WALLET_BUS_URL`.
The full list with defaults is in docs/configuration.md (generated from these classes and checked by a test).
"""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SERVICE_PORTS = {
    "gateway": 8000,
    "tournament-director": 8001,
    "table-engine": 8002,
    "wallet": 8003,
    "rating": 8004,
    "totalizator": 8005,
}


def default_url(service: str) -> str:
    return f"http://127.0.0.1:{SERVICE_PORTS[service]}"


class ServiceSettings(BaseSettings):
    """Fields every service has. A service subclasses it with its name and env prefix:

    class Settings(ServiceSettings):
        model_config = service_config("wallet")
        service_name: str = "wallet"
    """

    model_config = SettingsConfigDict(extra="ignore")

    service_name: str = Field("service", description="Name used in logs, metrics and as the event producer.")
    host: str = Field("127.0.0.1", description="Interface the HTTP server binds to.")
    port: int = Field(
        0, description="HTTP port; 0 means the service's standard port (gateway 8000 … totalizator 8005)."
    )
    database_url: str = Field(
        "",
        description="SQLAlchemy async URL of the service's own database (postgresql+asyncpg://… when deployed); "
        "empty means the SQLite file data/<service>.db.",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description="Proxies whose X-Forwarded-For/-Proto headers are believed (comma-separated addresses or "
        "CIDRs; * when an ingress is the only way in): the client address rate limits and logs see comes from them.",
    )
    bus_url: str = Field("memory://", description="`amqp://user:pass@host:5672/` for RabbitMQ, `memory://` standalone.")
    migrate_on_start: bool = Field(True, description="Upgrade the database to the latest migration at start-up.")
    log_level: str = Field("INFO", description="Log level of the JSON logs.")
    otel_exporter_otlp_endpoint: str = Field(
        "", description="OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); empty: not exported."
    )
    internal_token: str = Field(
        "dev-internal-token",
        description="Shared secret that service-to-service REST calls carry in `X-Internal-Token`.",
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
