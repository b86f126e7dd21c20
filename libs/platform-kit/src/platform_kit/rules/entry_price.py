"""The split of an entry's price (P-8.1): prize part + fee, the prize part never below 80% of the price.

The director checks it on every price of a tournament definition (buy-in, rebuy, add-on, sponsored entry); the
wallet checks it again on every entry it books (buy-in, rebuy, add-on, satellite entry), since it moves the
prize part to the tournament's escrow whoever asks. Both ask `prize_part_meets_floor`.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["PRIZE_PART_FLOOR", "prize_part_meets_floor"]

#: P-8.1: the least share of an entry's price that goes to the prize pool.
PRIZE_PART_FLOOR = Fraction(4, 5)


def prize_part_meets_floor(prize_part_cents: int, fee_cents: int) -> bool:
    """P-8.1: whether the prize part is at least 80% of the price (prize part + fee), exactly at 80% included.

    Decided in integers (5 × prize part ≥ 4 × price), so no rounding can move a price across the floor. Both
    amounts are non-negative cents (the callers validate amounts first); a free entry (0 + 0) meets the floor.
    """
    price_cents = prize_part_cents + fee_cents
    return prize_part_cents * PRIZE_PART_FLOOR.denominator >= price_cents * PRIZE_PART_FLOOR.numerator
