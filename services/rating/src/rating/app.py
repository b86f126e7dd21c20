"""The rating service's app factory: its routes and refusals; the composition root is `bootstrap.build`."""

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.errors import problem
from platform_kit.runtime import ServiceRuntime

from rating import bootstrap
from rating.adapters.orm import metadata
from rating.api import conduct, jobs, public, ratings
from rating.domain import InvalidAppeal, RatingDomainError
from rating.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def create_app(
    settings: Settings | None = None, *, bus: Transport | None = None, clock: Clock | None = None
) -> FastAPI:
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    services = bootstrap.build(settings, runtime, clock=clock or SystemClock())
    app = create_service_app(
        runtime,
        title="Rating",
        description="Ratings with daily decay, skill tiers, the public leaderboard and the sanctions registry. "
        "`/v1/leaderboard` is public; `/internal/v1/...` needs `X-Internal-Token`, and the conduct routes also "
        "the caller the gateway authenticated: `X-Principal-Role` (player, operator, admin), `X-Principal-Id`, "
        "`X-Concessionaire-Id`. No route sets a tier (P-11.6).",
        routers=[public.router, ratings.router, conduct.router, jobs.router],
    )
    app.state.services = services

    async def refused(_: Request, exc: Exception) -> JSONResponse:
        # The rules' refusals: an appeal out of turn conflicts with the record, anything else is invalid input.
        assert isinstance(exc, RatingDomainError)
        return problem(409 if isinstance(exc, InvalidAppeal) else 422, exc.code, str(exc))

    app.add_exception_handler(RatingDomainError, refused)
    return app
