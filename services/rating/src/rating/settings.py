"""Settings of the rating service: the common fields under the `RATING_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("rating")
    service_name: str = "rating"
