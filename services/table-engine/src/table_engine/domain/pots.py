"""Main and side pots by contribution level, and how a pot is split (P-1.2, P-1.2a).

Positions (0 = first player left of the button) index every list here, so "in seat order from the button's
left" is plain ascending order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    """``amount`` chips that the positions in ``eligible`` (ascending) contest."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Split contributed chips into a main pot and side pots.

    Each distinct contribution level makes a pot of what every player put in up to that level, contested by
    the players still in the hand who reached it; folded players' chips stay in the pots they reached.
    Consecutive levels with the same contestants are one pot. ``dead`` chips (the big-blind ante, P-1.2a) are
    contested by every player still in, so they join the main pot (or stand alone when the big blind is all-in
    for the ante alone).
    """
    still_in = tuple([p for p, out in enumerate(folded) if not out])
    top = max(contributions)
    if all(contributions[p] == top for p in still_in):
        # The usual case, nobody all-in for less: a single pot that every player still in contests.
        total = sum(contributions) + dead
        return [Pot(total, still_in)] if total else []
    pots = [Pot(dead, still_in)] if dead else []
    players = len(contributions)
    previous = 0
    for index, level in enumerate(sorted(contributions)):
        if level == previous:
            continue
        # In ascending order, this player and every later one put in at least ``level``.
        amount = (level - previous) * (players - index)
        eligible = tuple([p for p in still_in if contributions[p] >= level])
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    return pots


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners`` (ascending positions): equal parts, and the odd chips one each to
    the first winners left of the button (P-1.2a, WSOP rule 73)."""
    share, odd = divmod(amount, len(winners))
    return [(position, share + 1 if i < odd else share) for i, position in enumerate(winners)]
