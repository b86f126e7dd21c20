"""Player protection the wallet owns (docs/player-protection.md): deposit limits, their history, and the net
result of play since an instant (the reality check). Internal: the gateway decides who may read or change them
and names who asked in `changed_by`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from platform_kit.app import ReadingDep
from platform_kit.instants import as_utc
from platform_kit.internal_api import require_internal_token
from pydantic import BaseModel, ConfigDict, Field

from wallet.adapters import deposit_limits as limit_rows
from wallet.adapters import play_result
from wallet.api.context import MOUNT, ServicesDep
from wallet.bootstrap import Services
from wallet.domain.deposit_limits import Period
from wallet.service.deposit_limits import WindowView

router = APIRouter(
    prefix=f"{MOUNT}/v1/players/{{player_id}}", tags=["protection"], dependencies=[Depends(require_internal_token)]
)

Amount = Annotated[int | None, Field(ge=0, le=10**13, description="Minor units; null: no limit.")]


class DepositLimitsIn(BaseModel):
    """The windows to change; a window left out keeps its limit, null removes it (after the cooling-off)."""

    model_config = ConfigDict(extra="forbid")

    currency: str = Field(pattern=r"^[A-Z]{3}$")
    day: Amount = None
    week: Amount = None
    month: Amount = None
    changed_by: str = Field(min_length=1, max_length=140, description="Who asks, as `role:id`.")

    def requested(self) -> dict[Period, int | None]:
        return {period: getattr(self, period.value) for period in Period if period.value in self.model_fields_set}


class WindowOut(BaseModel):
    period: Period
    amount: int | None = Field(description="The limit in force now; null: none.")
    pending_amount: int | None = Field(description="A looser limit waiting for the end of its cooling-off.")
    pending_from: datetime | None = Field(description="When the pending limit applies; null: nothing pending.")
    deposited: int = Field(description="Deposited in the window (the last 24 h, 7 days or 30 days).")
    remaining: int | None = Field(description="What may still be deposited now; null: no limit.")

    @classmethod
    def of(cls, window: WindowView) -> WindowOut:
        pending = window.limit.pending_from is not None
        return cls(
            period=window.period,
            amount=window.in_force,
            pending_amount=window.limit.pending_amount if pending else None,
            pending_from=window.limit.pending_from,
            deposited=window.deposited,
            remaining=window.remaining,
        )


class CurrencyLimitsOut(BaseModel):
    currency: str
    windows: list[WindowOut]


class DepositLimitsOut(BaseModel):
    player_id: str
    cooling_off_hours: int
    limits: list[CurrencyLimitsOut]


class LimitChangeOut(BaseModel):
    """A `deposit_limits.LimitChange` as the API answers it."""

    currency: str
    period: Period
    previous_amount: int | None
    requested_amount: int | None
    changed_by: str
    changed_at: datetime
    effective_from: datetime


class LimitHistoryOut(BaseModel):
    player_id: str
    changes: list[LimitChangeOut] = Field(description="Newest first.")


class NetResultOut(BaseModel):
    player_id: str
    since: datetime
    net: dict[str, int] = Field(description="Per currency, minor units: winnings and refunds minus buy-ins and stakes.")


async def _limits(services: Services, player_id: str) -> DepositLimitsOut:
    async with services.runtime.units.reading() as session:
        views = await services.deposit_limits.view(session, player_id)
    hours = int(services.deposit_limits.cooling_off.total_seconds() // 3600)
    limits = [CurrencyLimitsOut(currency=c, windows=[WindowOut.of(w) for w in ws]) for c, ws in views.items()]
    return DepositLimitsOut(player_id=player_id, cooling_off_hours=hours, limits=limits)


@router.get("/deposit-limits", response_model=DepositLimitsOut)
async def deposit_limits(player_id: str, services: ServicesDep) -> DepositLimitsOut:
    return await _limits(services, player_id)


@router.put("/deposit-limits", response_model=DepositLimitsOut)
async def change_deposit_limits(player_id: str, body: DepositLimitsIn, services: ServicesDep) -> DepositLimitsOut:
    """Stricter limits apply at once; looser ones after the cooling-off. Sending the same values again changes
    nothing (no history row), so a retried PUT is harmless."""
    async with services.runtime.units.unit() as uow:
        await services.deposit_limits.change(uow.session, player_id, body.currency, body.requested(), body.changed_by)
    return await _limits(services, player_id)


@router.get("/deposit-limits/history", response_model=LimitHistoryOut)
async def deposit_limit_history(player_id: str, session: ReadingDep) -> LimitHistoryOut:
    changes = await limit_rows.history(session, player_id)
    return LimitHistoryOut(
        player_id=player_id, changes=[LimitChangeOut.model_validate(c, from_attributes=True) for c in changes]
    )


@router.get("/net-result", response_model=NetResultOut)
async def net_result(
    player_id: str, session: ReadingDep, since: Annotated[datetime, Query(description="The session's start.")]
) -> NetResultOut:
    net = await play_result.net_since(session, player_id, as_utc(since))
    return NetResultOut(player_id=player_id, since=since, net=net)
