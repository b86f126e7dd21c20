"""The totalizator service's app factory."""

from pathlib import Path

from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.runtime import ServiceRuntime

from totalizator.adapters.orm import metadata
from totalizator.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(settings: Settings | None = None, *, bus: Transport | None = None) -> FastAPI:
    runtime = ServiceRuntime(settings or Settings(), metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    return create_service_app(
        runtime,
        title="Totalizator",
        description="Exact-score draws, coupons, FX rates, live statistics, settlement, jackpot and published bet files.",
    )
