"""The prize pool of a tournament (P-8.2) and the guarantee overlay (P-8.3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournament_director.domain.entries import Entry


def collected_prize_parts_cents(entries: Iterable[Entry]) -> int:
    """P-8.2: the sum of the prize parts of every buy-in (satellite and sponsored entries included), rebuy
    and add-on."""
    return sum(entry.price.prize_part_cents for entry in entries)


@dataclass(frozen=True)
class PoolFunding:
    """Where the prize pool comes from: the collected prize parts, topped up to the guarantee if need be."""

    collected_cents: int
    guarantee_cents: int

    @property
    def pool_cents(self) -> int:
        """P-8.3: the larger of the collected prize parts and the guarantee."""
        return max(self.collected_cents, self.guarantee_cents)

    @property
    def overlay_cents(self) -> int:
        """P-8.3: what the concessionaire pays from its own account when the guarantee is not reached."""
        return self.pool_cents - self.collected_cents


def fund_prize_pool(entries: Iterable[Entry], guarantee_cents: int = 0) -> PoolFunding:
    """The prize pool of a tournament with these entries and this guarantee (P-8.2, P-8.3)."""
    if guarantee_cents < 0:
        raise ValueError("a guarantee cannot be negative")
    return PoolFunding(collected_cents=collected_prize_parts_cents(entries), guarantee_cents=guarantee_cents)
