"""All v1 routes under `/api/v1`: the gateway's own (identities, streams) and the proxies to the services.

Each module is included with the problem answers its routes have in common (`problem_answers`): the proxies pass
on whatever the owning service refuses (`RELAYED`); the session routes refuse credentials. A route's own refusals
are declared on the route.

The modules are included in the app itself, each under the prefix, and the busiest first: FastAPI finds a
request's route by trying the routes in order, every included router over again for the match and then for
the handling, so a router nested in an `/api/v1` router of its own and the modules before it cost every request
(a fifth of `GET /players/me`'s CPU, issue 14); behind the lobby, the sessions and the concessionaires, finding
`POST /draws/{id}/coupons` cost 42 µs more a coupon (the app called in process). No two modules have a path in
common (tests/test_module_paths.py), so the order decides nothing else; the URLs and the OpenAPI document are the
same.
"""

from types import ModuleType
from typing import Any

from fastapi import FastAPI

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
API_V1 = "/api/v1"
MODULES: list[tuple[ModuleType, dict[int | str, dict[str, Any]]]] = [
    (players, {}),  # GET /players/me: a client's first call and its refresh
    (tables, RELAYED),  # a player's actions
    (draws, RELAYED),  # coupons: a closing rush is thousands a minute
    (tournaments, RELAYED),  # the lobby
    (auth, SESSION_REFUSALS),
    (concessionaires, {}),
    (draw_admin, RELAYED),
    (money, RELAYED),
    (reconciliation, RELAYED),
    (rating, RELAYED),
    (protection, {}),
    (ws, {}),
    (webhooks, {}),
]


def include_api_v1(app: FastAPI) -> None:
    for module, answers in MODULES:
        app.include_router(module.router, prefix=API_V1, responses=answers)
