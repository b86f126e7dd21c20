"""Settings of the wallet service: the common fields under the `WALLET_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config
from pydantic import Field


class Settings(ServiceSettings):
    model_config = service_config("wallet")
    service_name: str = "wallet"
    hold_ttl_seconds: int = Field(900, description="How long a hold stays pending when its request names no expiry.")
    hold_sweep_interval_seconds: float = Field(5.0, description="How often expired holds are released.")
    reconciliation_interval_seconds: float = Field(
        60.0, description="How often the ledger is reconciled (sums per currency, balances against entries)."
    )
    idempotency_retention_hours: int = Field(
        720,
        ge=24,
        description="Hours an answered Idempotency-Key is kept after its first request (minimum 24): within them a "
        "retry with the same key and request gets the first answer — the guarantee given to partners. Then the purge "
        "deletes the key and the same request executes as a new command, so clients must not retry after it.",
    )
    idempotency_purge_interval_seconds: float = Field(
        3600.0,
        gt=0,
        description="How often Idempotency-Keys past their retention are deleted, oldest first, 10,000 rows per "
        "transaction so the purge never holds many locks for long.",
    )
    deposit_limit_cooling_off_hours: int = Field(
        24,
        ge=24,
        description="Hours before a player's looser deposit limit (raised or removed) takes effect; a stricter one "
        "applies at once. At least 24 h, the cooling-off Italian licensed sites give (docs/player-protection.md).",
    )
