"""The rating service's app factory: routes, the consumers of tournament results and player registrations,
and the two background jobs (daily tiers, sanction expiry)."""

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.errors import problem
from platform_kit.events.gateway import PlayerRegistered
from platform_kit.events.tournament import TournamentFinished
from platform_kit.runtime import ServiceRuntime

from rating.adapters.orm import metadata
from rating.api import conduct, jobs, public, ratings
from rating.domain import InvalidAppeal, RatingDomainError
from rating.service.context import Context
from rating.service.players import on_player_registered
from rating.service.results import tournament_finished_handler
from rating.service.sanctions import run_expiry_job
from rating.service.tiers import run_tier_job
from rating.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None, *, bus: Transport | None = None, clock: Clock | None = None
) -> FastAPI:
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    context = Context(runtime.db, runtime.outbox, clock or SystemClock(), settings.zone)
    runtime.on(TournamentFinished.TYPE, tournament_finished_handler(context))
    runtime.on(PlayerRegistered.TYPE, on_player_registered)
    runtime.in_background(lambda: run_tier_job(context, settings.tier_job_interval_seconds))
    runtime.in_background(lambda: run_expiry_job(context, settings.sanction_expiry_interval_seconds))
    app = create_service_app(
        runtime,
        title="Rating",
        description="Ratings with daily decay, skill tiers, the public leaderboard and the sanctions registry. "
        "`/v1/leaderboard` is public; `/internal/v1/...` needs `X-Internal-Token`, and the conduct routes also "
        "the caller the gateway authenticated: `X-Principal-Role` (player, operator, admin), `X-Principal-Id`, "
        "`X-Concessionaire-Id`. No route sets a tier (P-11.6).",
        routers=[public.router, ratings.router, conduct.router, jobs.router],
    )
    app.state.context = context

    async def refused(_: Request, exc: Exception) -> JSONResponse:
        # The rules' refusals: an appeal out of turn conflicts with the record, anything else is invalid input.
        assert isinstance(exc, RatingDomainError)
        return problem(409 if isinstance(exc, InvalidAppeal) else 422, exc.code, str(exc))

    app.add_exception_handler(RatingDomainError, refused)
    return app
