"""Settings of the totalizator service: the common fields under the `TOTALIZATOR_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("totalizator")
    service_name: str = "totalizator"
