"""All v1 routes under `/api/v1`. A later proxy (tournaments, wallet, totalizator…) adds its router here."""

from fastapi import APIRouter

from gateway.api.v1 import auth, concessionaires, players, ws

router = APIRouter(prefix="/api/v1")
for module in (auth, concessionaires, players, ws):
    router.include_router(module.router)
