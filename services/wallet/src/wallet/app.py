"""The wallet service's app factory."""

from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from platform_kit.app import create_service_app
from platform_kit.bus import Transport
from platform_kit.clock import Clock, SystemClock
from platform_kit.errors import PROBLEM_JSON
from platform_kit.runtime import ServiceRuntime

from wallet import bootstrap
from wallet.adapters.orm import metadata
from wallet.api import internal, partner, protection
from wallet.api.legacy_mount import LegacyMount
from wallet.domain.errors import Refusal
from wallet.service.refusals import problem_body, status_of
from wallet.settings import Settings

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
# A draw's payouts or refunds come in batches of up to 100 000 payments (DrawPaymentsIn): several MiB, beyond
# the kit's default body limit that every other route keeps.
BODY_LIMITS = {"/internal/v1/draws": 16 * 1024 * 1024}


def create_app(
    settings: Settings | None = None, *, bus: Transport | None = None, clock: Clock | None = None
) -> FastAPI:
    settings = settings or Settings()
    runtime = ServiceRuntime(settings, metadata=metadata, migrations_dir=MIGRATIONS, bus=bus)
    app = create_service_app(
        runtime,
        title="Wallet",
        description="Accounts and a double-entry ledger in minor units per currency: holds, transfers, "
        "idempotency keys. Internal calls carry `X-Internal-Token`; partner calls (through the gateway) also "
        "`X-Concessionaire-Id`; every command carries an `Idempotency-Key`.",
        routers=[internal.router, partner.router, protection.router],
        body_limits=BODY_LIMITS,
    )
    app.state.services = bootstrap.build(runtime, settings, clock or SystemClock())
    app.add_middleware(LegacyMount)  # outermost: the old path is rewritten before any other middleware sees it

    async def refused(_: Request, exc: Exception) -> Response:
        # Commands answer refusals through the idempotent executor; queries' refusals arrive here.
        assert isinstance(exc, Refusal)
        status = status_of(exc)
        return JSONResponse(problem_body(status, exc.code, exc.message, exc.details), status, media_type=PROBLEM_JSON)

    app.add_exception_handler(Refusal, refused)
    return app
