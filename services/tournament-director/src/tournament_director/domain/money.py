"""Cent arithmetic: splitting an amount in integer cents without creating or losing a cent (P-8.5).

Every split in the tournament domain — prizes by position, tied prizes, refunds shared equally or by chips,
jackpot shares — goes through `allocate`, so the one rounding rule of the platform lives here: each share is
the floor of its exact value, and the cents left over go one each to the shares in the order the caller lists
them (for prizes: positions 1, 2, 3, …).
"""

from __future__ import annotations

from collections.abc import Sequence

#: Percentages are kept in basis points: 10,000 bp = 100%, 1 bp = 0.01%.
BASIS_POINTS_PER_WHOLE = 10_000


def allocate(total_cents: int, weights: Sequence[int]) -> list[int]:
    """Split `total_cents` in proportion to `weights` (P-8.5), best-placed share first.

    Each share is floor(total × weight / sum of weights); the leftover cents (always fewer than the number of
    positive weights) go one each to the shares with a positive weight, in the order given. The result sums
    to `total_cents` exactly.
    """
    if total_cents < 0:
        raise ValueError(f"cannot split a negative amount ({total_cents} cents)")
    if any(weight < 0 for weight in weights):
        raise ValueError("weights must not be negative")
    weight_sum = sum(weights)
    if weight_sum == 0:
        if total_cents == 0:
            return [0] * len(weights)
        raise ValueError("cannot split a positive amount over weights that are all zero")
    shares = [total_cents * weight // weight_sum for weight in weights]
    leftover = total_cents - sum(shares)
    for index, weight in enumerate(weights):
        if leftover == 0:
            break
        if weight > 0:
            shares[index] += 1
            leftover -= 1
    return shares


def split_equally(total_cents: int, count: int) -> list[int]:
    """Split `total_cents` into `count` equal shares; the leftover cents go one each to the first shares."""
    return allocate(total_cents, [1] * count)
