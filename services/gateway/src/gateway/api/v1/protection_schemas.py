"""Request and answer bodies of the player-protection routes (api/v1/protection.py)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from gateway.adapters.protection_store import ProtectionRecord
from gateway.domain.protection import (
    REALITY_CHECK_MINUTES,
    SESSION_LIMIT_MINUTES,
    ExclusionTerm,
    SelfExclusion,
    SessionClock,
)
from gateway.service.protection import HistoryEntry

RealityCheck = Annotated[
    int | None, Field(ge=REALITY_CHECK_MINUTES[0], le=REALITY_CHECK_MINUTES[1], description="Minutes; null: off.")
]
SessionLimit = Annotated[
    int | None, Field(ge=SESSION_LIMIT_MINUTES[0], le=SESSION_LIMIT_MINUTES[1], description="Minutes; null: off.")
]
LimitAmount = Annotated[int | None, Field(ge=0, le=10**13, description="Minor units; null: no limit.")]


def _request(example: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": [example]})


class SelfExclusionRequest(BaseModel):
    model_config = _request({"term": "30_days"})

    term: ExclusionTerm = Field(description="`30_days`, `60_days`, `90_days` or `permanent`.")


class SessionSettings(BaseModel):
    """Only the fields sent change; null switches a setting off."""

    model_config = _request({"reality_check_minutes": 30, "session_limit_minutes": 120})

    reality_check_minutes: RealityCheck = None
    session_limit_minutes: SessionLimit = None

    def changes(self) -> dict[str, int | None]:
        return {name: getattr(self, name) for name in self.model_fields_set}


class DepositLimitsRequest(BaseModel):
    """Only the windows sent change. Lower limits apply at once; higher ones (or null: none) after the
    cooling-off period the answer gives (`cooling_off_hours`)."""

    model_config = _request({"currency": "EUR", "day": 5_000, "week": 20_000, "month": 50_000})

    currency: str = Field(pattern=r"^[A-Z]{3}$")
    day: LimitAmount = None
    week: LimitAmount = None
    month: LimitAmount = None

    def for_wallet(self, changed_by: str) -> dict[str, object]:
        return {"currency": self.currency, "changed_by": changed_by} | {
            name: getattr(self, name) for name in self.model_fields_set if name != "currency"
        }


class SelfExclusionView(BaseModel):
    term: ExclusionTerm
    starts_at: datetime
    ends_at: datetime | None = Field(description="Null: permanent.")
    in_force: bool

    @classmethod
    def of(cls, exclusion: SelfExclusion, now: datetime) -> SelfExclusionView:
        return cls(
            term=exclusion.term,
            starts_at=exclusion.starts_at,
            ends_at=exclusion.ends_at,
            in_force=exclusion.in_force_at(now),
        )


class SessionView(BaseModel):
    """The reality check: how long the session has lasted and what it won or lost."""

    started_at: datetime
    elapsed_seconds: int
    ends_at: datetime | None = Field(description="When the session limit stops play; null: no limit.")
    limit_reached: bool
    next_reality_check_at: datetime | None
    net_result: dict[str, int] = Field(
        description="Per currency, minor units since the session started: winnings and refunds minus buy-ins and "
        "stakes (deposits and withdrawals are not play)."
    )

    @classmethod
    def of(cls, clock: SessionClock, net: dict[str, int]) -> SessionView:
        return cls(
            started_at=clock.started_at,
            elapsed_seconds=int(clock.elapsed.total_seconds()),
            ends_at=clock.ends_at,
            limit_reached=clock.limit_reached,
            next_reality_check_at=clock.next_reality_check_at,
            net_result=net,
        )


class ProtectionView(BaseModel):
    player_id: str
    self_exclusion: SelfExclusionView | None
    reality_check_minutes: int | None
    session_limit_minutes: int | None
    session: SessionView | None = Field(description="Null until the player's first log-in.")

    @classmethod
    def of(cls, record: ProtectionRecord, now: datetime, session: SessionView | None) -> ProtectionView:
        exclusion = record.exclusion
        return cls(
            player_id=record.player_id,
            self_exclusion=None if exclusion is None else SelfExclusionView.of(exclusion, now),
            reality_check_minutes=record.rules.reality_check_minutes,
            session_limit_minutes=record.rules.session_limit_minutes,
            session=session,
        )


class HistoryItem(BaseModel):
    setting: str = Field(description="`self_exclusion`, `reality_check`, `session_limit` or `deposit_limit`.")
    value: str | None = Field(description="The term, the minutes or the amount (minor units); null: switched off.")
    period: str | None = Field(description="Deposit limits: `day`, `week` or `month`.")
    currency: str | None
    changed_by: str = Field(description="Who asked, as `role:id`.")
    changed_at: datetime
    effective_from: datetime
    effective_until: datetime | None

    @classmethod
    def of(cls, entry: HistoryEntry) -> HistoryItem:
        return cls(**asdict(entry))


class ProtectionHistory(BaseModel):
    player_id: str
    changes: list[HistoryItem] = Field(description="Newest first.")
