"""Settings of the wallet service: the common fields under the `WALLET_` prefix (docs/configuration.md)."""

from platform_kit.settings import ServiceSettings, service_config


class Settings(ServiceSettings):
    model_config = service_config("wallet")
    service_name: str = "wallet"
