"""All v1 routes under `/api/v1`: the gateway's own (identities, streams) and the proxies to the services.

Each module's router declares its path under `API_V1` and the problem answers its routes have in common
(`problem_answers`): the proxies pass on whatever the owning service refuses (`RELAYED`); the session routes
refuse credentials. A route's own refusals are declared on the route.

The modules' routes are served as the app's own (`platform_kit.flat_routes`), the busiest first: FastAPI finds a
request's route by trying the routes in order. Included as routers, every router before the one that answers was
walked, and that one twice (a fifth of `GET /players/me`'s CPU when the modules sat in an `/api/v1` router of
their own; behind the lobby, the sessions and the concessionaires, `POST /draws/{id}/coupons` cost 42 µs more a
coupon: issue 14). No two modules have a path in common (tests/test_module_paths.py), so the order decides nothing
else; the URLs and the OpenAPI document are the same.
"""

from types import ModuleType

from fastapi import FastAPI
from platform_kit.flat_routes import include_flat

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

MODULES: list[ModuleType] = [
    players,  # GET /players/me: a client's first call and its refresh
    tables,  # a player's actions
    draws,  # coupons: a closing rush is thousands a minute
    tournaments,  # the lobby
    auth,
    concessionaires,
    draw_admin,
    money,
    reconciliation,
    rating,
    protection,
    ws,
    webhooks,
]


def include_api_v1(app: FastAPI) -> None:
    for module in MODULES:
        include_flat(app, module.router)
