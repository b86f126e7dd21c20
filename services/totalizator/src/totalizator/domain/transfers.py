"""The money transfers that settle a draw's pools in the wallet, one currency at a time (T-1.1, T-4, T-6).

The wallet keeps a pool per draw and currency, in whole minor units, that may never go negative. Stakes
come in; a settlement moves out every coupon's payout in its own currency (T-6.1) and empties the pool
through the organizer's transfers. Per currency C, in minor units of C:

    staked + organizer top-up + jackpot release = paid + organizer share + jackpot carry + rounding remainder

The exact amounts come from the settlement (CurrencyTotals): the T-6.2 top-up on C's winning bets, 5% of
C's stakes (T-1.1), and the jackpot net J = owed − top-up + share − staked: what C's winners receive
beyond what C's own stakes leave after the organizer's share. J > 0 is released from the network's jackpot
account in C (the jackpot played, T-4, or another currency's stakes); J < 0 is carried into it (T-3.2,
T-3.3). So the jackpot accounts also clear between currencies, and valued at the draw's fixed rates their
net change over all currencies is exactly the jackpot's: (next − available) in US dollars.

Rounding. Transfers are whole minor units, so each exact amount is rounded once, always leaving the pool
enough to pay: what goes out (share, carry) is floored, what comes in (top-up, release) rounded up. The
rounding remainder transfer is then what balances the pool to zero: the exact T-6.3 remainder (owed −
paid) plus those residues (less than 3 minor units in all), so it is never negative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from totalizator.domain.settlement import CurrencyTotals, Settlement


@dataclass(frozen=True, slots=True)
class PoolTransfers:
    """The organizer's transfers that settle one currency's pool, in its minor units (all ≥ 0)."""

    currency: str
    staked: int
    paid: int
    organizer_top_up: int  # network → pool, before the payouts (T-6.2)
    jackpot_release: int  # jackpot account → pool, before the payouts
    organizer_share: int  # pool → network (T-1.1)
    jackpot_carry: int  # pool → jackpot account
    rounding_remainder: int  # pool → network (T-6.3)

    @property
    def money_in(self) -> int:
        return self.staked + self.organizer_top_up + self.jackpot_release

    @property
    def money_out(self) -> int:
        """Equal to money_in: the pool ends empty."""
        return self.paid + self.organizer_share + self.jackpot_carry + self.rounding_remainder


def pool_transfers(settlement: Settlement) -> tuple[PoolTransfers, ...]:
    """The transfers of every currency staked in the settled (or refunded) draw, in the draw's order."""
    return tuple(_transfers(totals) for totals in settlement.currencies)


def jackpot_net(totals: CurrencyTotals) -> Fraction:
    """Exact minor units this currency's pool takes from (> 0) or gives to (< 0) the jackpot accounts."""
    return totals.owed - totals.topup + totals.organizer_share - totals.staked


def _transfers(totals: CurrencyTotals) -> PoolTransfers:
    net = jackpot_net(totals)
    top_up = math.ceil(totals.topup)
    share = math.floor(totals.organizer_share)
    release = math.ceil(net) if net > 0 else 0
    carry = math.floor(-net) if net < 0 else 0
    remainder = totals.staked + top_up + release - totals.paid - share - carry
    return PoolTransfers(
        currency=totals.currency,
        staked=totals.staked,
        paid=totals.paid,
        organizer_top_up=top_up,
        jackpot_release=release,
        organizer_share=share,
        jackpot_carry=carry,
        rounding_remainder=remainder,
    )
