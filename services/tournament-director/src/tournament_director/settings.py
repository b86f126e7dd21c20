"""Settings of the tournament-director service: the common fields under the `TOURNAMENT_DIRECTOR_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("tournament-director")
    service_name: str = "tournament-director"
