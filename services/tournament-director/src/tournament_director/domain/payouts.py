"""Payout schedules and prize amounts (P-8.4, P-8.5, P-2.4, P-3.4).

Schedules are percentages by final position, kept in basis points (10,000 bp = 100%), always summing to
exactly 100%, never increasing down the positions.

- **Seed table** (P-8.4): the default for 10–300 entrants, reproduced exactly (`SEED_TABLE`).
- **Small fields** (P-8.4 Interpretation): 2–5 entrants winner takes all; 6–9 entrants 65/35. This is also the
  sit'n'go default. **Interpretation:** a sit'n'go of 10 or more seats uses the seed table like any field of
  that size.
- **Large fields** (P-8.4 Interpretation, 301 entrants and more): one table's worth of places (9) per 75
  entrants or part of 75, i.e. 9 × ⌈entrants / 75⌉ places — between 12% and 15% of the field (301 → 45 places,
  3,000 → 360). Positions 1–9 are paid individually, then in bands of 9 positions (10–18, 19–27, …) that pay
  the same within a band. Shares follow the harmonic curve: position p weighs 1/p, each position of a band
  weighs the band's average of 1/p, and a position's share is its weight over the sum of all weights, floored
  to the basis point. The few basis points lost to flooring go one each to positions 1, 2, …, 9, cyclically,
  so the schedule sums to exactly 100% and stays non-increasing. `large_field_schedule` computes it exactly
  (fractions, no floats); 1st place gets about 22.8% at 301 entrants and 15.5% at 3,000.

Amounts (P-8.5): each position gets the floor of its share of the pool in cents; the leftover cents go one each
to positions 1, 2, 3, … (`payout_amounts`).

Ties (P-2.4): tied players share the sum of the prizes of the positions they occupy together, in equal parts;
**Interpretation:** the indivisible cents go one each to the tied players in the order of their `RankGroup`
(ascending table number), as the leftover cents of P-8.5 go in position order (`tied_prize_shares`).

Satellites (P-3.4, **Interpretation**): a satellite pays seats in its target. The pool buys as many seats as it
covers at the seat's full price (prize part + fee, since a qualified player counts as a paid buy-in); the
remainder is paid in cash to the position after the last seat (`satellite_prizes`). Tied players (P-2.4) whose
positions are all seats each win one; a tie across the last seat cannot split a seat, so those players share
the value of the positions they occupy in cash, like any tie (`PrizeTable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from pydantic import BaseModel, ConfigDict, field_validator
from pydantic_core import PydanticCustomError

from tournament_director.domain.money import BASIS_POINTS_PER_WHOLE, allocate, split_equally
from tournament_director.domain.ranking import PlayerId, RankGroup


class PayoutSchedule(BaseModel):
    """Shares of the prize pool by final position, 1st first, in basis points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    shares_bps: tuple[int, ...]

    @field_validator("shares_bps")
    @classmethod
    def _check_shares(cls, shares: tuple[int, ...]) -> tuple[int, ...]:
        if not shares:
            raise PydanticCustomError("payout_schedule_empty", "a payout schedule pays at least one position")
        if any(share <= 0 for share in shares):
            raise PydanticCustomError("payout_share_not_positive", "every paid position gets a positive share")
        if (total := sum(shares)) != BASIS_POINTS_PER_WHOLE:
            raise PydanticCustomError(
                "payout_shares_not_100_percent",
                "the shares add up to {total} bp, not 10,000 bp (100%)",
                {"total": total},
            )
        if any(better < worse for better, worse in pairwise(shares)):
            raise PydanticCustomError(
                "payout_shares_increasing", "a position never gets more than the position above it"
            )
        return shares

    @property
    def paid_places(self) -> int:
        return len(self.shares_bps)


def _schedule(*shares_bps: int) -> PayoutSchedule:
    return PayoutSchedule(shares_bps=shares_bps)


#: The seed's default table (P-8.4): (fewest entrants, most entrants, schedule).
SEED_TABLE: tuple[tuple[int, int, PayoutSchedule], ...] = (
    (10, 30, _schedule(5000, 3000, 2000)),
    (31, 50, _schedule(4000, 2500, 1600, 1100, 800)),
    (51, 75, _schedule(3200, 2200, 1350, 1000, 750, 600, 500, 400)),
    (76, 100, _schedule(3000, 2000, 1250, 950, 750, 600, 500, 400, 300, 250)),
    (101, 200, _schedule(2700, 1600, 1000, 800, 700, 600, 500, 400, 300, 200, *[120] * 10)),
    (201, 300, _schedule(2700, 1550, 1000, 800, 600, 500, 400, 310, 230, 160, *[100] * 10, *[75] * 10)),
)

WINNER_TAKES_ALL = _schedule(10_000)
SIXTY_FIVE_THIRTY_FIVE = _schedule(6500, 3500)

#: Large fields: 9 paid places (one table) per this many entrants or part of it.
LARGE_FIELD_ENTRANTS_PER_PAID_TABLE = 75
_BAND = 9


def large_field_paid_places(entrants: int) -> int:
    return _BAND * -(-entrants // LARGE_FIELD_ENTRANTS_PER_PAID_TABLE)


@lru_cache(maxsize=64)
def _harmonic_band_schedule(paid_places: int) -> PayoutSchedule:
    bands = [[position] for position in range(1, _BAND + 1)] + [
        list(range(first, min(first + _BAND, paid_places + 1))) for first in range(_BAND + 1, paid_places + 1, _BAND)
    ]
    weights = []
    for band in bands:
        average = sum(Fraction(1, position) for position in band) / len(band)
        weights.extend([average] * len(band))
    total = sum(weights)
    shares = [int(BASIS_POINTS_PER_WHOLE * weight / total) for weight in weights]
    for index in range(BASIS_POINTS_PER_WHOLE - sum(shares)):
        shares[index % _BAND] += 1
    return PayoutSchedule(shares_bps=tuple(shares))


def large_field_schedule(entrants: int) -> PayoutSchedule:
    """The documented default for 301 entrants and more (P-8.4 Interpretation; see the module docstring)."""
    if entrants <= SEED_TABLE[-1][1]:
        raise ValueError(f"the large-field schedule starts above {SEED_TABLE[-1][1]} entrants")
    return _harmonic_band_schedule(large_field_paid_places(entrants))


def default_schedule(entrants: int) -> PayoutSchedule:
    """The platform's default schedule for a field of `entrants` (P-8.4)."""
    if entrants < 1:
        raise ValueError("a field has at least one entrant")
    if entrants <= 5:
        return WINNER_TAKES_ALL
    if entrants <= 9:
        return SIXTY_FIVE_THIRTY_FIVE
    for fewest, most, schedule in SEED_TABLE:
        if fewest <= entrants <= most:
            return schedule
    return large_field_schedule(entrants)


def payout_amounts(pool_cents: int, schedule: PayoutSchedule) -> tuple[int, ...]:
    """Prize in cents of each paid position, 1st first (P-8.5): floors, leftover cents to 1st, 2nd, 3rd, …"""
    return tuple(allocate(pool_cents, schedule.shares_bps))


def tied_prize_shares(amounts: Sequence[int], group: RankGroup) -> tuple[int, ...]:
    """What each player of `group` gets when `amounts` are the prizes by position (P-2.4, P-8.5).

    The group shares the prizes of every position it occupies (positions beyond the paid ones are worth 0);
    each player gets an equal part, and the indivisible cents go one each in the group's order."""
    total = sum(amounts[position - 1] for position in group.positions if position <= len(amounts))
    return tuple(split_equally(total, len(group.players)))


def prizes_by_player(amounts: Sequence[int], groups: Sequence[RankGroup]) -> dict[PlayerId, int]:
    """Every ranked player's prize in cents (0 outside the paid positions), ties shared (P-2.4)."""
    return PrizeTable(tuple(amounts)).cash_by_player(groups)


@dataclass(frozen=True)
class SatellitePrizes:
    """Seats won in the target for positions 1..`seats`, and the cash remainder for position `seats` + 1."""

    seats: int
    cash_remainder_cents: int

    @property
    def paid_places(self) -> int:
        return self.seats + (1 if self.cash_remainder_cents else 0)


def satellite_prizes(pool_cents: int, seat_price_cents: int) -> SatellitePrizes:
    """How many target seats the pool buys at the seat's full price, and the cash left (P-3.4)."""
    if seat_price_cents <= 0:
        raise ValueError("a seat has a positive price")
    seats, remainder = divmod(pool_cents, seat_price_cents)
    return SatellitePrizes(seats=seats, cash_remainder_cents=remainder)


def schedule_from_amounts(amounts: Sequence[int]) -> PayoutSchedule:
    """The schedule that pays `amounts` by position, in basis points (floors, leftover points to 1st, 2nd, …):
    a satellite's seats as the percentages of its pool that a cancellation (P-10) shares out."""
    if not any(amounts):
        return WINNER_TAKES_ALL
    return _schedule(*(share for share in allocate(BASIS_POINTS_PER_WHOLE, amounts) if share))


@dataclass(frozen=True)
class PrizeTable:
    """What each final position wins: cash `amounts` by position, 1st first; in a satellite the first `seats`
    positions win a seat in its target instead (each worth `amounts[0]`, P-3.4)."""

    amounts: tuple[int, ...]
    seats: int = 0

    @classmethod
    def of_satellite(cls, pool_cents: int, seat_price_cents: int) -> PrizeTable:
        prizes = satellite_prizes(pool_cents, seat_price_cents)
        remainder = (prizes.cash_remainder_cents,) if prizes.cash_remainder_cents else ()
        return cls((seat_price_cents,) * prizes.seats + remainder, prizes.seats)

    @property
    def paid_places(self) -> int:
        return len(self.amounts)

    def group_shares(self, group: RankGroup) -> tuple[tuple[int, ...], bool]:
        """Each player's cash in `group` (P-2.4, P-8.5), and whether each of them wins a seat instead."""
        if group.last_position <= self.seats:
            return (0,) * len(group.players), True
        return tied_prize_shares(self.amounts, group), False

    def cash_by_player(self, groups: Sequence[RankGroup]) -> dict[PlayerId, int]:
        """Every ranked player's cash prize (0 outside the paid positions and for a seat)."""
        prizes: dict[PlayerId, int] = {}
        for group in groups:
            prizes.update(zip(group.players, self.group_shares(group)[0], strict=True))
        return prizes

    def seat_winners(self, groups: Sequence[RankGroup]) -> tuple[PlayerId, ...]:
        """The players who win a seat in the satellite's target, best first."""
        return tuple(player for group in groups if self.group_shares(group)[1] for player in group.players)
