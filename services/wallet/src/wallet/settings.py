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
    deposit_limit_cooling_off_hours: int = Field(
        24,
        ge=24,
        description="Hours before a player's looser deposit limit (raised or removed) takes effect; a stricter one "
        "applies at once. At least 24 h, the cooling-off Italian licensed sites give (docs/player-protection.md).",
    )
    group_commit_max_size: int = Field(
        100,
        ge=1,
        description="Most money commands the group commit runs in one transaction (deposits, withdrawals, paid "
        "entries; 1: each alone, as other commands run).",
    )
