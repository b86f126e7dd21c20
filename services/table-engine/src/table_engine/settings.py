"""Settings of the table-engine service: the common fields under the `TABLE_ENGINE_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("table-engine")
    service_name: str = "table-engine"
