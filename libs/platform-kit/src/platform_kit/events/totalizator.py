"""The totalizator's events: the draw's life cycle, void matches and live statistics (T-2.6).

US-dollar amounts are decimal strings: pools and jackpots exact; per-option statistics and the settlement's
figures (paid, organizer top-up, rounding remainder) rounded half to even to the micro-dollar, as the
verifier prints them (T-8.4).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from platform_kit.events.base import Event


class OptionStatistics(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    match_no: int
    option: str
    bets: int
    amount_usd: str


class DrawAnnounced(Event):
    """A draw opened for bets (T-2.2): closing time, jackpot and accepted currencies are fixed."""

    TYPE = "totalizator.draw.announced"
    draw_id: str
    close_at: datetime
    jackpot_usd: str
    currencies: list[str]


class StatisticsUpdated(Event):
    """Bets so far per match and result (T-2.6); published at most once per second per draw while open."""

    TYPE = "totalizator.statistics.updated"
    draw_id: str
    as_of: datetime
    coupons: int
    bets: int
    pool_usd: str
    options: list[OptionStatistics]


class MatchVoided(Event):
    """A match became void (T-5.1): it kicked off before bet closing, or by an operator's decision."""

    TYPE = "totalizator.match.voided"
    draw_id: str
    match_no: int
    cause: Literal["kicked_off_before_closing", "decision"]
    reason: str
    void_matches: int
    playable: bool


class DrawClosed(Event):
    """Bets are closed and every accepted coupon is paid for: the final count and pool (T-2.6); the draw
    and bet files (T-8) can be downloaded."""

    TYPE = "totalizator.draw.closed"
    draw_id: str
    closed_at: datetime
    coupons: int
    bets: int
    pool_usd: str


class DrawSettled(Event):
    """Every payout of the draw is in the players' wallets (T-6), or every stake was refunded because three or
    more matches were void (T-5.5, `refunded`)."""

    TYPE = "totalizator.draw.settled"
    draw_id: str
    refunded: bool
    winning_coupons: int
    paid_usd: str
    organizer_topup_usd: str
    rounding_remainder_usd: str
    next_jackpot_usd: str


class DrawCancelled(Event):
    """An operator cancelled the draw and every coupon was refunded (T-5.5); the jackpot carries over whole."""

    TYPE = "totalizator.draw.cancelled"
    draw_id: str
    reason: str
    refunded_coupons: int


class CouponSettled(Event):
    """An accepted coupon's outcome once its draw is over (won, lost or refunded), one event per coupon.

    `won`: its payout (T-6) is in the player's wallet; `lost`: nothing paid; `refunded`: its whole amount back
    (three or more void matches, T-5.5, or a cancelled draw). Written just before the draw's
    `totalizator.draw.settled` / `totalizator.draw.cancelled`, in the transaction that marks the draw finished:
    after every payment of the draw is made.

    Public on the bus (the gateway turns it into its concessionaire's `coupon.settled` webhook), but a player's
    winnings are theirs: the gateway's WebSocket fan-out shows it to `player_id` alone, never to a draw's watchers
    (P-11.5). The totalizator does not know the player's concessionaire; the gateway looks it up."""

    TYPE = "totalizator.coupon.settled"
    coupon_id: str
    draw_id: str
    player_id: str
    status: Literal["won", "lost", "refunded"]
    currency: str
    stake: int  # the coupon's amount, minor units of `currency`
    amount: int  # paid to the player (payout or refund), minor units of `currency`; 0 when lost
    wallet_operation_id: int | None  # the wallet operation that paid it (one per batch of payments); None if lost
