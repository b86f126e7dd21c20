"""The ledger's reconciliation status for the console's Money screen (issue 17), relayed to the wallet, which
checks it: per currency the sum of all balances (the imbalance gauge, which must read zero) and every account
whose balance or held amount differs from its entries and holds.

Administrators read the whole network's. An operator reads its own concessionaire's: the ledger's sum (only
the whole ledger sums to zero) with the drift of its own accounts and its players' only; another
concessionaire's operator is refused (403 `not_your_concessionaire`), as on the concessionaire's accounts.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from gateway.api.access import allow, services_of
from gateway.api.problem_answers import RELAYED
from gateway.api.relay import clients_of, relay
from gateway.api.v1 import API_V1
from gateway.api.v1.money import ConcessionaireId
from gateway.api.v1.proxy_schemas import answers
from gateway.domain.roles import Principal, Role
from gateway.service.access import require_manages

router = APIRouter(prefix=API_V1, tags=["accounts"], responses=RELAYED)

Admin = Annotated[Principal, Depends(allow(Role.ADMIN))]
Staff = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]
WALLET_PATH = "/internal/v1/reconciliation"

EXAMPLE = {
    "ok": True,
    "checked_at": "2026-03-01T12:00:00Z",
    "currencies": [{"currency": "EUR", "ok": True, "accounts": 42, "sum_of_balances": 0, "drifts": []}],
}


@router.get(
    "/reconciliation",
    summary="The ledger's reconciliation across the network (administrators)",
    description="Per currency: the sum of all balances (must be 0) and the accounts that drifted from their "
    "entries or holds. `ok` is false if either is off.",
    responses=answers(EXAMPLE),
)
async def network(request: Request, principal: Admin) -> Response:
    return await relay(clients_of(request).wallet, "GET", WALLET_PATH, principal=principal)


@router.get(
    "/concessionaires/{concessionaire_id}/reconciliation",
    summary="The ledger's reconciliation as it concerns one concessionaire (its staff)",
    description="The whole ledger's sum of balances per currency (must be 0), with the count and the drift of "
    "this concessionaire's accounts and its players' only. 404 `concessionaire_not_found` for none such.",
    responses=answers(EXAMPLE),
)
async def of_concessionaire(concessionaire_id: ConcessionaireId, request: Request, principal: Staff) -> Response:
    require_manages(principal, concessionaire_id)
    await services_of(request).concessionaires.get(concessionaire_id)  # an unknown one is no empty success
    return await relay(
        clients_of(request).wallet,
        "GET",
        WALLET_PATH,
        principal=principal,
        params={"concessionaire_id": concessionaire_id},
    )
