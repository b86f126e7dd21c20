"""The rating service's composition root: `build` makes the context its use cases share (the commands run by
`service.handlers.handle`, and the queries), wires
the consumers of tournament results and player registrations and the two background jobs (daily tiers, sanction
expiry), and returns `Services`, which the app keeps at `app.state.services` for the routes."""

from __future__ import annotations

from dataclasses import dataclass

from platform_kit.clock import Clock
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.tournament import TournamentFinished
from platform_kit.runtime import ServiceRuntime

from rating.service.context import Context
from rating.service.jobs import run_expiry_job, run_tier_job
from rating.service.players import on_player_registered
from rating.service.results import tournament_finished_handler
from rating.settings import Settings


@dataclass(frozen=True)
class Services:
    """What the routes need: the context every use case of `rating.service` takes."""

    context: Context


def build(settings: Settings, runtime: ServiceRuntime, *, clock: Clock) -> Services:
    context = Context(runtime.db, runtime.outbox, clock, settings.zone)
    runtime.on(TournamentFinished.TYPE, tournament_finished_handler(context))
    runtime.on(PlayerRegistered.TYPE, on_player_registered)
    runtime.in_background(lambda: run_tier_job(context, settings.tier_job_interval_seconds))
    runtime.in_background(lambda: run_expiry_job(context, settings.sanction_expiry_interval_seconds))
    return Services(context)
