"""Settings of the rating service: the common fields under the `RATING_` prefix (docs/configuration.md)."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field, field_validator


class Settings(ServiceSettings):
    model_config = service_config("rating")
    service_name: str = "rating"
    time_zone: str = Field(
        "Europe/Rome",
        description="The network's reference time zone: a tournament counts for the rating on its finish date "
        "there (P-11.2), and the daily tier job closes each day at midnight there.",
    )
    tier_job_interval_seconds: float = Field(
        60.0, gt=0, description="How often the tier job checks whether a day has closed and still needs its tiers."
    )
    sanction_expiry_interval_seconds: float = Field(
        30.0, gt=0, description="How often temporary sanctions past their end are lifted (and announced)."
    )

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)  # fail at start-up, not at the first tournament
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}") from None
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)
