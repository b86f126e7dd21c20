"""Settings of the gateway service: the common fields under the `GATEWAY_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("gateway")
    service_name: str = "gateway"
