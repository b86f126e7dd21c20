"""Settings of the tournament-director service: the common fields under the `TOURNAMENT_DIRECTOR_` prefix
(docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field


class Settings(ServiceSettings):
    model_config = service_config("tournament-director")
    service_name: str = "tournament-director"
    tax_rate_bps: int = Field(
        0,
        ge=0,
        le=10_000,
        description="Tax on every entry's full price, in basis points (P-8.7), accrued from the concessionaire's "
        "margin when a tournament finishes; jackpot contributions come from the fee net of it (P-8.6). 0: no accrual.",
    )
    rebuy_offer_seconds: int = Field(
        30, ge=1, description="How long a busted player has to accept a rebuy offer before it counts as declined."
    )
    clock_interval_seconds: float = Field(
        1.0,
        gt=0,
        description="How often the clock loop looks for work: scheduled starts, level changes, lapsed rebuy "
        "offers and wallet calls to drive again.",
    )
    money_retry_seconds: float = Field(
        5.0, gt=0, description="A wallet call still unanswered after this long is made again, with the same key."
    )
    wallet_timeout_seconds: float = Field(10.0, gt=0, description="Timeout of one call to the wallet or rating.")
    action_seconds: int = Field(20, ge=1, description="A player's time to act at the director's tables.")
    time_bank_seconds: int = Field(60, ge=0, description="Each player's time bank at the director's tables.")
