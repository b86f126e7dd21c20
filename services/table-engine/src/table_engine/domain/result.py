"""What a finished hand leaves behind: stacks, pots and their winners, busts, shown hands."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PotResult:
    """A main (index 0) or side pot: its chips, the seats that contested it, and who got how much."""

    amount: int
    eligible: tuple[int, ...]
    shares: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a completed hand; every mapping is keyed by seat number.

    ``busted`` lists the seats left without chips, best-ranked first for the tournament ranking: more chips at
    the start of the hand ranks higher (P-2.2), then clockwise distance from the button, the button's seat
    ranking highest (P-2.3). ``shown`` holds the hole cards shown at the table, and nothing else (P-1.4).
    ``returned`` holds the chips given back: uncalled bets, and antes nobody still in could match.
    """

    start_stacks: Mapping[int, int]
    end_stacks: Mapping[int, int]
    pots: tuple[PotResult, ...]
    busted: tuple[int, ...]
    shown: Mapping[int, tuple[int, int]]
    board: tuple[int, ...]
    returned: Mapping[int, int]

    def net(self, seat: int) -> int:
        """Chips won (positive) or lost (negative) by ``seat`` in this hand."""
        return self.end_stacks[seat] - self.start_stacks[seat]

    @property
    def winnings(self) -> dict[int, int]:
        """Seat -> chips collected from the pots (uncalled bets given back excluded)."""
        totals: dict[int, int] = {}
        for pot in self.pots:
            for seat, chips in pot.shares.items():
                totals[seat] = totals.get(seat, 0) + chips
        return totals
