"""All v1 routes under `/api/v1`: the gateway's own (identities, streams) and the proxies to the services.

Each module is included with the problem answers its routes have in common (`problem_answers`): the proxies pass
on whatever the owning service refuses (`RELAYED`); the session routes refuse credentials. A route's own refusals
are declared on the route.
"""

from types import ModuleType
from typing import Any

from fastapi import APIRouter

from gateway.api.problem_answers import RELAYED, refusals
from gateway.api.v1 import (
    auth,
    concessionaires,
    draw_admin,
    draws,
    money,
    players,
    protection,
    rating,
    reconciliation,
    tables,
    tournaments,
    webhooks,
    ws,
)

SESSION_REFUSALS = refusals(
    {
        401: "Log-in: wrong login or password (`invalid_credentials`); refresh: an unknown, expired or reused "
        "refresh token",
        403: "Log-in and refresh: the player is banned (`player_banned`, P-12.5)",
        404: "Sign-up: no concessionaire has that code (`concessionaire_not_found`)",
        409: "Sign-up: the nickname or email is taken (`nickname_taken`, `email_taken`, `already_registered`)",
        422: "Invalid request (`validation_failed`, with the fields); sign-up: `underage` (T-1.4), `nickname_reserved`",
    }
)
MODULES: list[tuple[ModuleType, dict[int | str, dict[str, Any]]]] = [
    (auth, SESSION_REFUSALS),
    (concessionaires, {}),
    (players, {}),
    (tournaments, RELAYED),
    (tables, RELAYED),
    (draws, RELAYED),
    (draw_admin, RELAYED),
    (money, RELAYED),
    (reconciliation, RELAYED),
    (rating, RELAYED),
    (protection, {}),
    (ws, {}),
    (webhooks, {}),
]

router = APIRouter(prefix="/api/v1")
for module, answers in MODULES:
    router.include_router(module.router, responses=answers)
