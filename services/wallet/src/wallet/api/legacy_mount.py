"""The wallet's routes before they moved under `/internal` (`/v1/...`), still answered during a rolling deploy.

Why: a director or totalizator that is not upgraded yet still calls `/v1/...`. Answered 404, its money step
would be recorded as refused (a payout not paid, a buy-in failed although nothing was wrong). Rewritten to
`/internal/v1/...`, the call is the same request: the idempotency fingerprint leaves the mount out
(`api.context._operation_path`), so a key sent under either path is carried out once and replays its first answer.
Remove once no deployed caller uses `/v1` (every service at the release that moved the routes, or later).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from wallet.api.context import MOUNT

LEGACY_PREFIX = "/v1/"


class LegacyMount:
    """ASGI middleware: `/v1/...` is served as `MOUNT + /v1/...`; every other path is left alone."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(LEGACY_PREFIX):
            path = MOUNT + scope["path"]
            scope = {**scope, "path": path, "raw_path": path.encode()}
        await self.app(scope, receive, send)
