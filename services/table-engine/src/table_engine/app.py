"""The table-engine service's app factory: the composition root is `bootstrap.build`."""

import random
from pathlib import Path

from fastapi import FastAPI
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.runtime import ServiceRuntime

from table_engine import bootstrap
from table_engine.adapters.orm import metadata
from table_engine.api import internal, public
from table_engine.domain.fair_deal import derive_deck
from table_engine.service.host import DeckDerivation, Shuffler
from table_engine.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None,
    *,
    bus: Transport | None = None,
    clock: Clock | None = None,
    rng: Shuffler | None = None,
    derive: DeckDerivation = derive_deck,
) -> FastAPI:
    """`rng` draws each hand's secret seed and the first buttons: `random.SystemRandom()` unless a test injects
    one (P-1.3). `derive` makes the deck from the seed (`fair_deal.derive_deck`); tests stack decks with it."""
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    services = bootstrap.build(
        settings, runtime, clock=clock or SystemClock(), rng=rng or random.SystemRandom(), derive=derive
    )
    app = create_service_app(
        runtime,
        title="Table engine",
        description="Live tables and hands: dealing, betting, pots, showdown, timers, disconnect protection, chat "
        "and hand histories. Commands arrive on the shard's queue `table-engine.shard-<n>`; this API only reads. "
        "`/internal/…` routes need `X-Internal-Token`.",
        routers=[public.router, internal.router],
    )
    app.state.services = services
    return app
