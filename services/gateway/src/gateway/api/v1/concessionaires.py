"""Concessionaires, their operators and their partner API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status

from gateway.api.access import allow, public, services_of
from gateway.api.problem_answers import refusals
from gateway.api.v1 import API_V1
from gateway.api.v1.schemas import (
    ApiKeyView,
    ConcessionaireListing,
    ConcessionaireView,
    CreatedApiKeyView,
    NewApiKey,
    NewConcessionaire,
    NewOperator,
    StaffView,
)
from gateway.domain.roles import Principal, Role
from gateway.service.access import require_manages

router = APIRouter(prefix=API_V1 + "/concessionaires", tags=["concessionaires"])

Admin = Annotated[Principal, Depends(allow(Role.ADMIN))]
KeyManager = Annotated[Principal, Depends(allow(Role.OPERATOR, Role.ADMIN))]


@router.get("", dependencies=[Depends(public())], summary="The concessionaires a player may join")
async def listing(request: Request) -> list[ConcessionaireListing]:
    return [ConcessionaireListing(code=c.code, name=c.name) for c in await services_of(request).concessionaires.all()]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Create a concessionaire",
    responses=refusals({409: "The code is in use (`concessionaire_code_taken`)"}),
)
async def create(body: NewConcessionaire, request: Request, _: Admin) -> ConcessionaireView:
    return ConcessionaireView.of(await services_of(request).concessionaires.create(body.code, body.name))


@router.get("/{concessionaire_id}", summary="One concessionaire")
async def read(
    concessionaire_id: str,
    request: Request,
    principal: Annotated[Principal, Depends(allow(Role.ADMIN, Role.OPERATOR, Role.PARTNER))],
) -> ConcessionaireView:
    require_manages(principal, concessionaire_id)
    return ConcessionaireView.of(await services_of(request).concessionaires.get(concessionaire_id))


@router.post(
    "/{concessionaire_id}/operators",
    status_code=status.HTTP_201_CREATED,
    summary="Add an operator (staff account)",
    responses=refusals({409: "A staff member has this email (`email_taken`)"}),
)
async def add_operator(concessionaire_id: str, body: NewOperator, request: Request, _: Admin) -> StaffView:
    record = await services_of(request).staff.create_operator(concessionaire_id, body.email, body.password)
    return StaffView.of(record)


@router.post(
    "/{concessionaire_id}/api-keys",
    status_code=status.HTTP_201_CREATED,
    summary="Create a partner API key",
    description="The response holds the full key, shown this once only; the gateway keeps a digest.",
)
async def create_api_key(
    concessionaire_id: str, body: NewApiKey, request: Request, principal: KeyManager
) -> CreatedApiKeyView:
    created = await services_of(request).api_keys.create(principal, concessionaire_id, body.label)
    return CreatedApiKeyView(**ApiKeyView.of(created.record).model_dump(), key=created.key)


@router.get("/{concessionaire_id}/api-keys", summary="The concessionaire's API keys (without secrets)")
async def list_api_keys(concessionaire_id: str, request: Request, principal: KeyManager) -> list[ApiKeyView]:
    return [
        ApiKeyView.of(k) for k in await services_of(request).api_keys.of_concessionaire(principal, concessionaire_id)
    ]


@router.delete(
    "/{concessionaire_id}/api-keys/{key_id}", status_code=status.HTTP_204_NO_CONTENT, summary="Revoke an API key"
)
async def revoke_api_key(concessionaire_id: str, key_id: str, request: Request, principal: KeyManager) -> Response:
    await services_of(request).api_keys.revoke(principal, concessionaire_id, key_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
