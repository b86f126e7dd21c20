"""The tax base of a tournament and the tax on it (P-8.7).

**Interpretation.** The base is the full price (prize part + fee) of every entry: buy-ins, rebuys, add-ons,
satellite entries (valued as the buy-in they replace, P-3.4) and sponsored freeroll entries (P-9.2). The seed
says every sum from buy-ins, rebuys and add-ons "contributes ... to the determination of the tax", so the whole
price is counted, not only the prize part. The rate is configuration, in basis points (1 bp = 0.01%); the tax
is rounded half up to the cent, once per tournament.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournament_director.domain.entries import Entry
from tournament_director.domain.money import BASIS_POINTS_PER_WHOLE


def tax_base_cents(entries: Iterable[Entry]) -> int:
    """P-8.7: the sum of the full prices of every entry, whatever its kind or form of payment."""
    return sum(entry.price.total_cents for entry in entries)


def tax_on(base_cents: int, rate_bps: int) -> int:
    """The tax on `base_cents` at `rate_bps` basis points, rounded half up to the cent."""
    if base_cents < 0 or rate_bps < 0:
        raise ValueError("tax base and rate must not be negative")
    return (base_cents * rate_bps + BASIS_POINTS_PER_WHOLE // 2) // BASIS_POINTS_PER_WHOLE


@dataclass(frozen=True)
class TaxAssessment:
    """What the platform records per tournament for taxation (P-8.7)."""

    base_cents: int
    rate_bps: int
    tax_cents: int


def assess_tax(entries: Iterable[Entry], rate_bps: int) -> TaxAssessment:
    """The tax base of a tournament's entries and the tax at the configured rate (P-8.7)."""
    base = tax_base_cents(entries)
    return TaxAssessment(base_cents=base, rate_bps=rate_bps, tax_cents=tax_on(base, rate_bps))
