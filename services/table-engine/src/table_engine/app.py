"""The table-engine service's app factory."""

from pathlib import Path

from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.runtime import ServiceRuntime

from table_engine.adapters.orm import metadata
from table_engine.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(settings: Settings | None = None, *, bus: Transport | None = None) -> FastAPI:
    runtime = ServiceRuntime(settings or Settings(), metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    return create_service_app(
        runtime,
        title="Table engine",
        description="Live tables and hands: dealing, betting, pots, showdown, timers, disconnect protection, chat and hand histories.",
    )
