"""Holds: money reserved on an account, then posted (spent, wholly or in part) or voided, or expired.

A pending hold lowers the account's available balance (balance − held) without moving money. Posting moves
the posted amount to the hold's destination and releases the rest; voiding or expiry releases it all. Every
hold ends in exactly one of these states, so nothing stays reserved for ever.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from wallet.domain.errors import HoldExpired, HoldNotPending, InvalidAmount


class HoldStatus(StrEnum):
    PENDING = "pending"
    POSTED = "posted"
    VOIDED = "voided"
    EXPIRED = "expired"


def check_can_resolve(hold_id: int, status: HoldStatus, expires_at: datetime, now: datetime) -> None:
    """A hold is posted or voided only while pending; past its expiry it counts as expired even before the
    periodic sweep has released it."""
    if status is HoldStatus.EXPIRED or (status is HoldStatus.PENDING and expires_at <= now):
        raise HoldExpired(f"Hold {hold_id} has expired.", hold_id=hold_id, expired_at=expires_at.isoformat())
    if status is not HoldStatus.PENDING:
        raise HoldNotPending(f"Hold {hold_id} is already {status}.", hold_id=hold_id, status=str(status))


def amount_to_post(hold_id: int, held: int, requested: int | None) -> int:
    """Posting takes the whole hold unless a smaller amount is asked for; the rest is released."""
    if requested is None:
        return held
    if isinstance(requested, bool) or not isinstance(requested, int) or not 0 < requested <= held:
        raise InvalidAmount(
            f"Hold {hold_id} can post between 1 and {held} minor units.", hold_id=hold_id, amount=requested
        )
    return requested
