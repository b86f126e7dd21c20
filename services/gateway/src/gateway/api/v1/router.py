"""All v1 routes under `/api/v1`: the gateway's own (identities, streams) and the proxies to the services."""

from fastapi import APIRouter

from gateway.api.v1 import auth, concessionaires, draw_admin, draws, money, players, rating, tables, tournaments, ws

router = APIRouter(prefix="/api/v1")
for module in (auth, concessionaires, players, tournaments, tables, draws, draw_admin, money, rating, ws):
    router.include_router(module.router)
