"""The totalizator's events: draw life cycle and live statistics (T-2.6)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from platform_kit.events.base import Event


class OptionStatistics(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    match_no: int
    option: str
    bets: int
    amount_usd: str


class DrawAnnounced(Event):
    TYPE = "totalizator.draw.announced"
    draw_id: str
    close_at: str
    jackpot_usd: str


class StatisticsUpdated(Event):
    TYPE = "totalizator.statistics.updated"
    draw_id: str
    coupons: int
    bets: int
    pool_usd: str
    options: list[OptionStatistics]


class DrawClosed(Event):
    TYPE = "totalizator.draw.closed"
    draw_id: str
    coupons: int
    pool_usd: str


class DrawSettled(Event):
    TYPE = "totalizator.draw.settled"
    draw_id: str
    winning_coupons: int
    paid_usd: str
    next_jackpot_usd: str


class DrawCancelled(Event):
    TYPE = "totalizator.draw.cancelled"
    draw_id: str
    reason: str
    refunded_coupons: int
