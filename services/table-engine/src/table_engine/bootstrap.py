"""The table engine's composition root: `build` makes the shard's `TableHost`, wires it into the runtime (its
command queue and clock in the background, its copy of the chat bans), and returns `Services`, which the app keeps
at `app.state.services` (the routes read in their request's read session, `platform_kit.app.ReadingDep`)."""

from __future__ import annotations

from dataclasses import dataclass

from platform_kit.clock import Clock
from platform_kit.events import rating as rating_events
from platform_kit.runtime import ServiceRuntime

from table_engine.service.host import DeckDerivation, Shuffler, TableHost
from table_engine.settings import Settings


@dataclass(frozen=True)
class Services:
    """`host` applies the commands and runs the clocks; the routes only read, each in the read session of its
    request (`platform_kit.app.ReadingDep`)."""

    host: TableHost


def build(
    settings: Settings, runtime: ServiceRuntime, *, clock: Clock, rng: Shuffler, derive: DeckDerivation
) -> Services:
    host = TableHost(runtime, settings, clock, rng, derive)
    runtime.in_background(host.serve)
    # Every shard keeps its own copy of the chat bans: a queue per shard, so none misses one.
    sanctions = f"{host.queue}.sanctions"
    runtime.on(rating_events.SanctionDecided.TYPE, host.sanction_decided, queue=sanctions)
    runtime.on(rating_events.SanctionLifted.TYPE, host.sanction_lifted, queue=sanctions)
    return Services(host=host)
