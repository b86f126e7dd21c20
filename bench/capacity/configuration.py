"""The services' settings in a capacity run: the e2e harness's (`harness.run.service_settings`: fresh secrets,
cheap password hashing, rate limits out of the bots' way since they all come from one address, fast clocks)
without the demo concessionaire (`people.py`), with the shard count every service must agree on, no migration
at start-up (the platform migrates first, once per database), the action clock the bots' pace needs, and
unhurried periodic work (a reconciliation every few seconds would be load of the harness's own making)."""

from __future__ import annotations

from harness.processes import START_ORDER
from harness.run import service_settings as e2e_settings

from capacity.options import Options


def service_settings(options: Options) -> dict[str, dict[str, str]]:
    settings = e2e_settings()
    for service in START_ORDER:
        settings.setdefault(service, {}).update(
            {"TABLE_ENGINE_SHARDS": str(options.shards), "MIGRATE_ON_START": "false", "LOG_LEVEL": "WARNING"}
        )
    settings["gateway"]["DEMO_CONCESSIONAIRE"] = "false"  # the players join a concessionaire of the run's own
    settings["tournament-director"].update(
        {"ACTION_SECONDS": str(options.action_seconds), "TIME_BANK_SECONDS": "0", "WALLET_TIMEOUT_SECONDS": "10"}
    )
    settings["totalizator"]["WALLET_TIMEOUT_SECONDS"] = "10"
    settings["wallet"]["RECONCILIATION_INTERVAL_SECONDS"] = "60"
    return settings
